'use strict';
// Before any sample against a cluster: can each Route's host be resolved and its router port
// connected to from here? A host that does not resolve, or a router that refuses, ends the run
// with the reason and what to do, instead of samples of nothing but errors.
const dns = require('node:dns/promises');
const { connectProblem } = require('../core/ports');

const CONNECT_TIMEOUT_MS = 5000;

/** Where the URL's host connects: --router-address when given (k6's `hosts`), else DNS. */
async function addressOf(host, routerAddress) {
  if (routerAddress) return { address: routerAddress };
  try {
    return { address: (await dns.lookup(host)).address };
  } catch (err) {
    return { problem: `${host} does not resolve (${err.code || err.message})` };
  }
}

/** Each route of `terminations` that cannot be reached: [{ termination, problem }], empty when all can. */
async function unreachableRoutes(target, terminations, { timeoutMs = CONNECT_TIMEOUT_MS } = {}) {
  const checks = [...new Set(terminations)].map(async (termination) => {
    const url = new URL(target.routes[termination].url);
    const port = Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
    const { address, problem } = await addressOf(url.hostname, target.routerAddress);
    if (problem) return { termination, problem, dns: true };
    const refused = await connectProblem(port, address, timeoutMs);
    return (
      refused && { termination, problem: `the router at ${address}:${port} (${url.hostname}): ${refused}` }
    );
  });
  return (await Promise.all(checks)).filter(Boolean);
}

/** What to do about `problems`: DNS first, since a router address fixes it without DNS. */
function advice(problems) {
  if (problems.some((p) => p.dns)) {
    return (
      "point the apps domain's DNS (*.apps.<domain>) at the router's load balancer, or give " +
      '--router-address ADDRESS (the load balancer or a router node): every route host then connects there'
    );
  }
  return 'check --router-address, --http-port and --https-port, and that the router runs (oc get pods -n openshift-ingress)';
}

/** Throws, naming every route that cannot be reached and what to do, before a cluster run samples. */
async function requireReachable(target, terminations, opts) {
  if (target.mode !== 'cluster') return;
  const problems = await unreachableRoutes(target, terminations, opts);
  if (!problems.length) return;
  const lines = problems.map((p) => `  ${p.termination}: ${p.problem}`);
  throw new Error(
    `the Routes cannot be reached from here, so nothing was measured:\n${lines.join('\n')}\n` +
      `What to do: ${advice(problems)}.`,
  );
}

module.exports = { requireReachable, unreachableRoutes };
