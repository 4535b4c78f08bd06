'use strict';
// Reading `haload -ll -hs` output: one line a second of running totals (connections, requests,
// bytes, errors) and of that second's rates, mean time to first and last byte, and status classes.

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/** The data lines under haload's `#` header, each as { column: number|null } by the header's names. */
function rows(text) {
  const lines = text.split('\n');
  const header = lines.find((l) => l.startsWith('#'));
  if (!header) throw new Error(`haload printed no figures:\n${text.trim().slice(-1000)}`);
  // '#_____time' and 'ttfb(us)': the names without the padding and the unit.
  const names = header
    .replace(/^#_*/, '')
    .trim()
    .split(/\s+/)
    .map((n) => n.replace(/\(.*\)$/, ''));
  return lines
    .filter((l) => /^\s*\d/.test(l))
    .map((l) => {
      const values = l.trim().split(/\s+/);
      return Object.fromEntries(names.map((n, i) => [n, values[i] === '-' ? null : Number(values[i])]));
    });
}

/** Mean of `column` over the rows, each weighted by the requests it finished. */
function weightedMean(data, column) {
  let weight = 0;
  let sum = 0;
  let before = 0;
  for (const row of data) {
    const done = row.tot_req - before;
    before = row.tot_req;
    if (row[column] === null || done <= 0) continue;
    weight += done;
    sum += row[column] * done;
  }
  return weight ? sum / weight : null;
}

/**
 * Parses `haload -ll -hs` output into { requests, connections, errors, bytes, statuses,
 * meanTtfbMs, meanTtlbMs }: totals from the last line, status classes summed over the lines,
 * latencies as means (haload prints no percentiles). Throws when it printed no figures.
 */
function parseHaloadOutput(text) {
  const data = rows(text);
  if (!data.length) throw new Error(`haload printed a header but no figures:\n${text.trim().slice(-1000)}`);
  const last = data[data.length - 1];
  const statuses = Object.fromEntries(
    STATUS_CLASSES.map((c) => [c, data.reduce((sum, row) => sum + (row[c] ?? 0), 0)]),
  );
  const ms = (us) => (us === null ? null : Number((us / 1000).toFixed(4)));
  return {
    requests: last.tot_req,
    connections: last.tot_conn,
    errors: last.err,
    bytes: last.tot_bytes,
    statuses,
    meanTtfbMs: ms(weightedMean(data, 'ttfb')),
    meanTtlbMs: ms(weightedMean(data, 'ttlb')),
  };
}

module.exports = { parseHaloadOutput };
