'use strict';
// The one tool runner for load generators: spawn, pin, sample the CPU, stop on an AbortSignal,
// judge the exit and parse. A generator is a small definition of what differs (k6.js, wrk.js).
const { spawn } = require('node:child_process');
const { once } = require('node:events');
const { pinned, keepOutput } = require('../core/processes');
const { inNetns } = require('../core/netns');
const { parseCpuList } = require('../core/cpus');
const { startCpuMonitor, allowedCores } = require('./cpu-monitor');

/**
 * A definition:
 *   {
 *     name,                         // 'k6', 'wrk': the name its CPU is sampled under
 *     describe?(input) → string,    // names the run in errors, e.g. 'k6 on cell edge:1k:close'
 *     command(input) → { file, args, env? },
 *     exitOk(code) → boolean,       // default: code 0
 *     failure?(output) → string,    // why it failed, from its output (default: the output's tail)
 *     parse(run, input) → result,   // run: { code, signal, output, cpu, counters, allowedCores, elapsedMs, endedEarly }
 *     endEarly?: { signal, exitCode, ready? }, // how to end it before its time and keep its
 *                                   // figures; ready: a line of its output that says it now takes
 *                                   // the signal, which an end asked for before waits for
 *   }
 * `counters`: an optional start() → { stop(): Promise, result() } for figures read elsewhere while
 * the tool runs (the router's own counters, ./router-counters.js). `netns`: run the tool inside
 * that network namespace (lib/core/netns.js).
 *
 * Runs `definition` once with `input`. `watch` names other pids whose CPU is sampled alongside
 * ({ router: pid, 'data-service-1': pid }); `cpus` pins the tool (a taskset list); `signal`
 * stops it and rejects with Node's AbortError; `end` ends it early the way its `endEarly` says, and
 * what it measured until then counts; `counters` are read meanwhile. Resolves with what `parse`
 * returns.
 */
async function runTool(
  definition,
  input,
  { watch = {}, cpus = null, counters = null, netns = null, signal, end } = {},
) {
  signal?.throwIfAborted();
  if (end && !definition.endEarly) throw new Error(`${definition.name} cannot be ended early`);
  const what = definition.describe ? definition.describe(input) : definition.name;
  const { file, args, env = process.env } = definition.command(input);
  const [command, argv] = inNetns(netns, pinned(file, args, cpus));
  const started = Date.now();
  const child = spawn(command, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = keepOutput(child);
  const monitor = startCpuMonitor({ [definition.name]: child.pid, ...watch });
  const counting = counters ? counters.start() : null;
  // Under taskset, child.pid is taskset's until it execs the tool: its affinity is not set yet,
  // so the pinned list is the answer.
  const cores = cpus ? parseCpuList(cpus).length : allowedCores(child.pid);
  const onAbort = () => child.kill('SIGTERM');
  signal?.addEventListener('abort', onAbort, { once: true });
  const ending = end ? endWhenReady(child, definition.endEarly, output) : null;
  const onEnd = () => ending.request();
  if (end?.aborted) onEnd();
  else end?.addEventListener('abort', onEnd, { once: true });
  let code;
  let exitSignal;
  try {
    [code, exitSignal] = await once(child, 'exit');
  } catch (err) {
    throw new Error(`could not start ${what} (${command}): ${err.message}`, { cause: err });
  } finally {
    monitor.stop();
    await counting?.stop();
    signal?.removeEventListener('abort', onAbort);
    end?.removeEventListener('abort', onEnd);
  }
  signal?.throwIfAborted();
  const exitOk = definition.exitOk || ((c) => c === 0);
  const endedEarly = ending?.sent() ?? false;
  if (!exitOk(code) && !(endedEarly && code === definition.endEarly.exitCode)) {
    const why = definition.failure?.(output()) || output().trim().slice(-2000);
    throw new Error(`${what} failed (exit ${code ?? exitSignal}):\n${why}`);
  }
  return definition.parse(
    {
      code,
      signal: exitSignal,
      output: output(),
      cpu: monitor.result(),
      counters: counting ? counting.result() : null,
      allowedCores: cores,
      elapsedMs: Date.now() - started,
      endedEarly,
    },
    input,
  );
}

/**
 * Ends `child` early as `endEarly` says, once asked (request()) and once its output holds
 * endEarly.ready: a tool that has not trapped the signal yet dies of it, its figures unwritten, or
 * ignores it (k6 until its test is loaded, which a busy host stretches). sent(): whether the
 * signal went to a running child.
 */
function endWhenReady(child, { signal, ready }, output) {
  let asked = false;
  let sent = false;
  let isReady = !ready;
  const send = () => {
    if (!asked || !isReady || sent) return;
    sent = child.exitCode === null && child.signalCode === null;
    if (sent) child.kill(signal);
  };
  if (!isReady) {
    const watch = () => {
      isReady = output().includes(ready);
      if (!isReady) return;
      child.stdout.off('data', watch);
      child.stderr.off('data', watch);
      send();
    };
    child.stdout.on('data', watch);
    child.stderr.on('data', watch);
  }
  return {
    request() {
      asked = true;
      send();
    },
    sent: () => sent,
  };
}

/** A sampled process's cores over the run (`run.cpu.cores[name]`), to 2 decimals; null if unmeasured. */
function coresOf(run, name) {
  const cores = run.cpu.cores[name];
  return typeof cores === 'number' ? Number(cores.toFixed(2)) : null;
}

module.exports = { runTool, coresOf };
