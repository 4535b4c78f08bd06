'use strict';
// Reading `wrk --latency` output: one parser for the matrix's cross-check and the data service's
// benchmark, which both drive wrk.

function toMs(value, unit) {
  return Number(value) * { us: 0.001, ms: 1, s: 1000, m: 60000 }[unit];
}

/** Parses `wrk --latency` output into { rps, requests, p50, p75, p90, p99, errors, non2xx }. */
function parseWrkOutput(text) {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(text);
  if (!rps) throw new Error(`wrk printed no Requests/sec:\n${text.trim().slice(-1000)}`);
  const result = { rps: Number(rps[1]) };
  const requests = /(\d+) requests in/.exec(text);
  result.requests = requests ? Number(requests[1]) : null;
  for (const [label, key] of [
    ['50%', 'p50'],
    ['75%', 'p75'],
    ['90%', 'p90'],
    ['99%', 'p99'],
  ]) {
    const m = new RegExp(`^\\s*${label}\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(text);
    result[key] = m ? Number(toMs(m[1], m[2]).toFixed(3)) : null;
  }
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(text);
  result.errors = socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(text);
  result.non2xx = non2xx ? Number(non2xx[1]) : 0;
  return result;
}

module.exports = { parseWrkOutput };
