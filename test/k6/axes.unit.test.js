'use strict';
// The cell axes declared once (k6/lib/axes.js): plans, names, k6 variables and messages are those
// recorded (test/fixtures/cell-plans.json), the schema agrees with the declaration, and the
// protocol axis flows through the plan, names and parsing.
const SCHEMA = require('../../lib/results-model/schema.json');
const BEFORE = require('../fixtures/cell-plans.json');
const axes = require('../../k6/lib/axes');
const cells = require('../../k6/lib/cells');
const { parseMatrixArgs } = require('../../lib/matrix/options');
const { planCells, allCells, cellMatcher } = require('../../lib/matrix/plan');
const { k6Args } = require('../../lib/load/k6');

const outcome = (f) => {
  try {
    return f();
  } catch (err) {
    return `${err.constructor.name}: ${err.message}`;
  }
};

describe('today’s axes give what they gave before they were declared once', () => {
  test.each(BEFORE.plans)('planCells for %j', (argv, expected) => {
    const plan = outcome(() =>
      planCells(parseMatrixArgs(argv))
        .map((c) => c.name)
        .join(' '),
    );
    expect(plan).toBe(expected);
  });

  test('the planned cells’ values, tags and k6 variables', () => {
    const planned = planCells(parseMatrixArgs(['--sizes', '1000,1m']));
    expect(planned.map((c) => Object.values(c))).toEqual(BEFORE.cellsOfSizes1000And1m);
    expect(
      planned.every(
        (c) => Object.keys(c).join() === 'name,termination,pageSize,connection,tlsSession,protocol',
      ),
    ).toBe(true);
    const wider = planCells(parseMatrixArgs(['--sizes', '1k,1000,1m']));
    expect(wider.map((c) => Object.values(cells.cellTags(c)).join(' '))).toEqual(BEFORE.tags);
    const args = wider.map((c) => k6Args(c, { vus: 32 }, { mode: 'lab' }, { durationSeconds: 3 }));
    const axisVariables = (list) =>
      list.filter(
        (a, i) => list[i - 1] === '-e' && /^(TERMINATION|PAGE_SIZE|CONNECTION|TLS_SESSION)=/.test(a),
      );
    expect(args.map((list) => axisVariables(list).join(' '))).toEqual(BEFORE.k6Variables);
  });

  test.each(BEFORE.names)('parseCellName(%j)', (name, expected) => {
    expect(outcome(() => cells.parseCellName(name))).toEqual(expected);
  });

  test('names round-trip: parse(format(cell)) is the cell, format(parse(name)) the name', () => {
    for (const cell of allCells({ sizes: ['1', '1000', '1k', '4k', '1m'] })) {
      expect(cells.parseCellName(cell.name)).toEqual(cell);
      expect(cells.cellName(cells.parseCellName(cell.name))).toBe(cell.name);
      expect(cells.cellOf(cell)).toEqual(cell);
      expect(cells.readCellVariables(cells.cellVariables(cell))).toEqual(cell);
    }
  });

  test('k6’s variables: each unset takes its axis’s default; a bad one is named', () => {
    expect(cells.readCellVariables({}).name).toBe('http:1k:keepalive');
    expect(cells.readCellVariables({ TERMINATION: 'edge', CONNECTION: 'close' }).name).toBe(
      'edge:1k:close:full',
    );
    expect(cells.readCellVariables({ TLS_SESSION: 'bogus' }).tlsSession).toBeNull();
    expect(() => cells.readCellVariables({ TERMINATION: 'tls' })).toThrow(
      'TERMINATION must be one of http, edge, passthrough, reencrypt, got "tls"',
    );
    expect(() => cells.readCellVariables({ PAGE_SIZE: 'huge' })).toThrow(/page size must look like/);
    expect(() =>
      cells.readCellVariables({ TERMINATION: 'edge', CONNECTION: 'close', TLS_SESSION: 'x' }),
    ).toThrow('TLS_SESSION must be one of full, resumed, got "x"');
  });
});

describe('results.json’s schema agrees with the declaration', () => {
  const cell = SCHEMA.$defs.cell.properties;

  test('the cell name pattern is the one the axes give', () => {
    expect(cell.name.pattern).toBe(cells.CELLS.namePattern());
  });

  test('each closed axis’s enum, with null where not every cell has it, and its option’s', () => {
    for (const axis of axes.AXES.filter((a) => a.values)) {
      expect(cell[axis.key].enum).toEqual(axis.appliesTo ? [...axis.values, null] : axis.values);
      if (axis.option) expect(SCHEMA.$defs.options.properties[axis.option].items.enum).toEqual(axis.values);
    }
    expect(SCHEMA.$defs.cell.required).toEqual(expect.arrayContaining(axes.AXES.map((a) => a.key)));
  });
});

describe('the protocol axis (HTTP/2 beside HTTP/1.1) flows through the plan, names and parsing', () => {
  // Every route the client reaches over TLS has it (ALPN chooses h2 inside TLS); its part is in a
  // name only off its default, so that every name from before the axis stays as it is.
  const names = (opts) => planCells({ sizes: ['1k'], ...opts }).map((c) => c.name);

  test('the plan: h2 cells beside the h1 ones, whose names do not change', () => {
    const plan = names({ protocols: ['h1', 'h2'] });
    expect(plan.filter((n) => n.endsWith(':h2'))).toEqual([
      'edge:1k:keepalive:h2',
      'edge:1k:close:full:h2',
      'edge:1k:close:resumed:h2',
      'passthrough:1k:keepalive:h2',
      'passthrough:1k:close:full:h2',
      'passthrough:1k:close:resumed:h2',
      'reencrypt:1k:keepalive:h2',
      'reencrypt:1k:close:full:h2',
      'reencrypt:1k:close:resumed:h2',
    ]);
    expect(plan.filter((n) => !n.endsWith(':h2'))).toEqual(names({}));
    expect(names({ protocols: ['h2'] })).toContain('edge:1k:keepalive:h2');
    expect(names({ protocols: ['h2'] })).not.toContain('edge:1k:keepalive');
    expect(names({ protocols: ['h2'] })).toContain('http:1k:keepalive');
    expect(names({})).not.toContain('edge:1k:keepalive:h2');
    expect(parseMatrixArgs(['--protocol', 'h2,h1']).protocols).toEqual(['h1', 'h2']);
    expect(() => parseMatrixArgs(['--protocol', 'h3'])).toThrow("--protocol: 'h3' is not one of h1, h2");
  });

  test('--cells patterns name it by its values, after the session part if any; h2 on http is refused', () => {
    expect(names({ cells: ['edge:1k:keepalive', 'edge:1k:keepalive:h2'] })).toEqual([
      'edge:1k:keepalive',
      'edge:1k:keepalive:h2',
    ]);
    expect(names({ cells: ['edge:1k:close:resumed:h2'] })).toEqual(['edge:1k:close:resumed:h2']);
    expect(names({ cells: ['edge:1k:close:*:*'] })).toEqual([
      'edge:1k:close:full',
      'edge:1k:close:full:h2',
      'edge:1k:close:resumed',
      'edge:1k:close:resumed:h2',
    ]);
    expect(names({ cells: ['*:1k:keepalive'] })).toEqual([
      'http:1k:keepalive',
      'edge:1k:keepalive',
      'passthrough:1k:keepalive',
      'reencrypt:1k:keepalive',
    ]);
    expect(() => cellMatcher('edge:1k:close:h3')).toThrow(
      "--cells: 'edge:1k:close:h3': session must be * or one of full, resumed; or protocol must be * or one of h1, h2",
    );
    expect(() => planCells(parseMatrixArgs(['--cells', 'http:1k:keepalive:h2']))).toThrow(
      "--cells: 'http:1k:keepalive:h2': only cells through a TLS route have a protocol part (ALPN chooses h2, inside TLS)",
    );
    // A wildcard termination keeps http, which has no protocol part, beside the h2 cells.
    expect(names({ cells: ['*:1k:keepalive:h2'] })).toEqual([
      'http:1k:keepalive',
      'edge:1k:keepalive:h2',
      'passthrough:1k:keepalive:h2',
      'reencrypt:1k:keepalive:h2',
    ]);
  });

  test('names, tags, k6 variables and the schema’s pattern take it', () => {
    const cell = cells.parseCellName('reencrypt:4k:close:full:h2');
    expect(cell).toEqual({
      name: 'reencrypt:4k:close:full:h2',
      termination: 'reencrypt',
      pageSize: 4096,
      connection: 'close',
      tlsSession: 'full',
      protocol: 'h2',
    });
    expect(cells.parseCellName('edge:1k:keepalive').protocol).toBe('h1');
    expect(cells.parseCellName('http:1k:keepalive').protocol).toBeNull();
    expect(() => cells.parseCellName('http:1k:keepalive:h2')).toThrow(
      "cell 'http:1k:keepalive:h2': only cells through a TLS route have a protocol part (ALPN chooses h2, inside TLS)",
    );
    expect(cells.cellTags(cell).protocol).toBe('h2');
    expect(cells.cellVariables(cell).PROTOCOL).toBe('h2');
    expect(cells.readCellVariables({ TERMINATION: 'edge' }).name).toBe('edge:1k:keepalive');
    expect(cells.readCellVariables({ TERMINATION: 'edge', PROTOCOL: 'h2' }).name).toBe(
      'edge:1k:keepalive:h2',
    );
    // An older record, from before the axis: the default where the cell has it.
    expect(cells.cellOf({ termination: 'edge', pageSize: 1024, connection: 'keepalive' }).protocol).toBe(
      'h1',
    );
    const pattern = new RegExp(cells.CELLS.namePattern());
    expect('edge:1k:close:full:h2').toMatch(pattern);
    expect('edge:1k:keepalive:h2').toMatch(pattern);
    expect('edge:1k:keepalive:h1').not.toMatch(pattern);
  });
});
