'use strict';
// The core list a process may run on: the kernel's Cpus_allowed_list format, parsed once for the
// lab (LAB_CPUS) and the matrix (k6's cores).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseCpuList, formatCpuList, allowedCoreList, allowedCoreCount } = require('../../lib/core/cpus');

describe('parseCpuList', () => {
  test.each([
    ['0', [0]],
    ['3', [3]],
    ['0-3', [0, 1, 2, 3]],
    ['2-3', [2, 3]],
    ['0,2,5', [0, 2, 5]],
    ['0-1,8-9', [0, 1, 8, 9]],
    ['8-9,0', [0, 8, 9]],
    ['1,1-2', [1, 2]],
    [' 4-5\n', [4, 5]],
  ])('%j is cores %j', (text, cores) => {
    expect(parseCpuList(text)).toEqual(cores);
  });

  test.each([
    ['', /bad core list item ""/],
    ['0,,1', /bad core list item ""/],
    ['a', /bad core list item "a"/],
    ['1-', /bad core list item "1-"/],
    ['-1', /bad core list item "-1"/],
    ['3-1', /backwards core range "3-1"/],
  ])('%j is refused, naming the item', (text, message) => {
    expect(() => parseCpuList(text)).toThrow(message);
  });

  test('formatCpuList is its compact reverse', () => {
    expect(formatCpuList([5, 0, 1, 2])).toBe('0-2,5');
    expect(formatCpuList([2, 3])).toBe('2-3');
    expect(formatCpuList([7])).toBe('7');
    expect(parseCpuList(formatCpuList([0, 1, 8, 9, 11]))).toEqual([0, 1, 8, 9, 11]);
  });
});

describe('allowedCoreList', () => {
  let procDir;
  beforeAll(() => {
    procDir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-proc-'));
    fs.mkdirSync(path.join(procDir, '42'));
    fs.writeFileSync(
      path.join(procDir, '42', 'status'),
      'Name:\tnode\nCpus_allowed:\tc\nCpus_allowed_list:\t2-3\nMems_allowed_list:\t0\n',
    );
  });
  afterAll(() => fs.rmSync(procDir, { recursive: true, force: true }));

  test('reads Cpus_allowed_list: a restricted cpuset need not start at core 0', () => {
    expect(allowedCoreList(42, { procDir })).toEqual([2, 3]);
    expect(allowedCoreCount(42, { procDir })).toBe(2);
  });

  test('without /proc it falls back to every core of the host, 0..n-1', () => {
    const n = os.availableParallelism();
    const expected = Array.from({ length: n }, (_, c) => c);
    expect(allowedCoreList('self', { procDir: path.join(procDir, 'none') })).toEqual(expected);
    expect(allowedCoreCount(43, { procDir })).toBe(n);
  });

  test("this process's list is the kernel's", () => {
    const kernel = /Cpus_allowed_list:\s*(\S+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1];
    expect(formatCpuList(allowedCoreList())).toBe(kernel);
  });
});
