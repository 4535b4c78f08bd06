'use strict';
// wrk as a load generator: a C client that needs far less CPU per request than k6, on the tool
// runner. HTTP/1.1 only; it takes the TLS SNI from the URL's host.
const { parseWrkOutput } = require('./wrk-output');
const { runTool } = require('./runner');

/** wrk as the tool runner runs it: `threads` threads, `connections` connections, --latency. */
const wrkGenerator = {
  name: 'wrk',
  describe: ({ url }) => `wrk against ${url}`,
  command({ wrk, url, host, connections, threads, durationSeconds }) {
    const args = ['-t', String(threads), '-c', String(Math.max(connections, threads))];
    args.push('-d', `${durationSeconds}s`, '--latency', '--timeout', '5s');
    if (host) args.push('-H', `Host: ${host}`);
    args.push(url);
    return { file: wrk, args };
  },
  parse(run, { threads, connections }) {
    const wrkCores = run.cpu.cores.wrk;
    return {
      ...parseWrkOutput(run.output),
      wrkCpuCores: wrkCores === null ? null : Number(wrkCores.toFixed(2)),
      threads,
      connections,
    };
  },
};

/**
 * Runs wrk for durationSeconds with `connections` connections; resolves the parsed result.
 * `cpus` pins it like k6; `signal` (AbortSignal) stops it and rejects with AbortError.
 */
function runWrk({ watch, cpus, signal, ...input }) {
  return runTool(wrkGenerator, input, { watch, cpus, signal });
}

module.exports = { wrkGenerator, runWrk };
