'use strict';
// The one /proc reader: the stat parser with a command name that holds spaces and parentheses,
// and real readings of this process and the host.
const { parseStat, readStat, hostCpuTimes, clockTicks, pageSize, sysctl } = require('../../lib/core/proc');

test('fields are counted from the last parenthesis, so the command name cannot shift them', () => {
  // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime
  // cutime cstime priority nice threads itrealvalue starttime …
  const text = '4242 (a (weird) name) S 1 4242 4242 0 -1 4194560 10 0 0 0 250 50 0 0 20 0 3 0 987654 1000 50';
  const stat = parseStat(text);
  expect(stat).toMatchObject({ state: 'S', utime: 250, stime: 50, startTime: '987654' });
  expect(stat.cpuSeconds).toBeCloseTo(300 / clockTicks());
  expect(stat.rssBytes).toBe(50 * pageSize());
});

test('a zombie shows as state Z', () => {
  expect(parseStat('7 (defunct) Z 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 55 0 0').state).toBe('Z');
});

test('this process has a state, CPU time and a start time; a gone pid reads as null', () => {
  const self = readStat(process.pid);
  expect(['R', 'S']).toContain(self.state);
  expect(self.cpuSeconds).toBeGreaterThan(0);
  expect(self.startTime).toMatch(/^\d+$/);
  // Resident memory as the kernel reports it, close to Node's own figure.
  expect(self.rssBytes).toBeGreaterThan(process.memoryUsage().rss / 2);
  expect(self.rssBytes).toBeLessThan(process.memoryUsage().rss * 2);
  expect(readStat(2 ** 22 + 1)).toBeNull();
});

test('the host counters are busy and total ticks, busy within total', () => {
  const host = hostCpuTimes();
  expect(host.total).toBeGreaterThan(0);
  expect(host.busy).toBeGreaterThan(0);
  expect(host.busy).toBeLessThanOrEqual(host.total);
});

test('a kernel setting is read by its sysctl name; an unknown one is null', () => {
  expect(sysctl('net.ipv4.ip_local_port_range')).toMatch(/^\d+\s+\d+$/);
  expect(sysctl('net.nope.not_a_setting')).toBeNull();
});

test('a stat line cut short (the process reaped mid-read) is refused, and read as gone', () => {
  expect(() => parseStat('')).toThrow(/not a \/proc/);
  expect(() => parseStat('42 (node) S 1')).toThrow(/no CPU times/);
});

test("a process's resident memory, alone or with its tree, as the lab reports it in MB", () => {
  const { rssBytes, megabytes } = require('../../lib/core/proc');
  const own = rssBytes(process.pid);
  expect(own).toBeGreaterThan(0);
  // The tree includes this process. Its memory moves between the two readings (V8 frees pages on
  // threads of its own), so not to the byte: it failed as `>= own` on a busy host.
  expect(rssBytes({ tree: process.pid })).toBeGreaterThan(own * 0.9);
  expect(rssBytes(2 ** 22 + 1)).toBeNull();
  expect([megabytes(1572864), megabytes(null)]).toEqual([1.5, null]);
});
