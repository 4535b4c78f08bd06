'use strict';
// haload, HAProxy's own load generator, on the tool runner: HTTP/1.1 or h2, TLS with SNI (a
// passthrough route, which wrk cannot reach), sessions resumed or not, a request rate or flat out.
// The matrix runs it for the cross-check where wrk cannot go.
const { parseHaloadOutput } = require('./haload-output');
const { runTool, coresOf } = require('./runner');

// The matrix's protocol axis (k6/lib/axes.js) → haload's flag.
const PROTOCOL_FLAGS = { h1: '-h1', h2: '-h2' };

/** Throws, naming the URL, unless haload can take it. */
function checkUrl(url) {
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`haload cannot use the URL ${JSON.stringify(url)}: it is not a URL`);
  }
  if (!['http:', 'https:'].includes(parsed.protocol)) {
    throw new Error(`haload cannot use the URL ${url}: it speaks http:// and https:// only`);
  }
}

/** HAProxy `server` keywords for the connection: SNI, and no session reuse when asked. */
function serverOptions({ sni, resume = true }) {
  const options = [];
  if (sni) options.push(`sni str(${sni})`);
  if (!resume) options.push('no-ssl-reuse');
  return options.join(' ');
}

const haloadGenerator = {
  name: 'haload',
  describe: ({ url }) => `haload against ${url}`,
  command({
    haload,
    url,
    host,
    sni,
    resume,
    protocol = 'h1',
    users,
    threads,
    durationSeconds,
    rate,
    perConnection,
  }) {
    checkUrl(url);
    const args = ['-ll', '-hs', '-t', String(threads), '-u', String(Math.max(users, threads))];
    args.push('-d', String(durationSeconds), '-w', '5000');
    if (rate) args.push('-R', String(rate));
    if (perConnection) args.push('-r', String(perConnection));
    if (host) args.push('-H', `Host: ${host}`);
    // As root HAProxy warns about chroot and user on every start: say both are meant.
    if (process.getuid?.() === 0) args.push('--global', 'chroot /\\nuid 0');
    // Server options and the protocol apply to the URLs after them.
    const server = serverOptions({ sni, resume });
    if (server) args.push('--server', server);
    args.push(PROTOCOL_FLAGS[protocol], url);
    return { file: haload, args };
  },
  /** HAProxy's alerts say why it would not start (an address it cannot use, say). */
  failure(output) {
    const alerts = output.match(/^\[ALERT\].*$/gm);
    return alerts ? alerts.map((a) => a.replace(/^\[ALERT\]\s*\(\d+\)\s*:\s*/, '')).join('\n') : null;
  },
  parse(run, { url, durationSeconds, threads, users }) {
    const figures = parseHaloadOutput(run.output);
    if (figures.requests === 0) {
      throw new Error(
        figures.errors > 0
          ? `haload got no response from ${url}: ${figures.errors} connections failed (is anything listening there?)`
          : `haload got no response from ${url} within ${durationSeconds} s`,
      );
    }
    return {
      ...figures,
      rps: figures.requests / durationSeconds,
      non2xx: figures.requests - figures.statuses['2xx'] - figures.statuses['3xx'],
      // haload prints mean latencies only.
      p99: null,
      cpuCores: coresOf(run, 'haload'),
      routerCpuCores: coresOf(run, 'router'),
      threads,
      users,
    };
  },
};

/**
 * Runs haload once; resolves its figures ({ rps, requests, connections, errors, non2xx, statuses,
 * meanTtfbMs, meanTtlbMs, cpuCores }). `watch`, `cpus`, `counters` and `signal` as runTool takes them.
 */
function runHaload({ watch, cpus, counters, signal, ...input }) {
  return runTool(haloadGenerator, input, { watch, cpus, counters, signal });
}

module.exports = { haloadGenerator, runHaload, checkUrl };
