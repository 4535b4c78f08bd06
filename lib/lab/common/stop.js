'use strict';
// Stopping a lab's recorded processes in order (traffic first, then the services, then their
// data), and telling which of them have died.
const { listRecords, processState, stopRecorded, forgetDrainedRouters } = require('./pids');
const { removePodNetwork, podNetwork } = require('./pod-network');
const { stopNode } = require('../node');

/**
 * Order in which lab:down stops things: traffic first, then the services, then their data, then
 * the node and its pods (LAB_PODS=yes), then the API server (LAB_ROUTER=openshift) the router and
 * the endpoints came from.
 */
const STOP_ORDER = ['router', 'service', 'redis', 'node', 'apiserver'];
// The router is gone by the time the services stop: SIGINT tells them no router can still be
// sending traffic, so they skip their drain delay (data-service/src/shutdown.js). The API server
// and etcd keep nothing a later lab reads (etcd starts empty), and kube-apiserver's graceful stop
// waits a second on a controller (measured: 1.1 s of a real-router lab:down of 2.3 s).
const STOP_SIGNAL = { service: 'SIGINT', apiserver: 'SIGKILL' };

const OUTCOME = {
  stopped: 'stopped',
  killed: 'killed (did not stop in time)',
  gone: 'had already exited',
  'not-running': 'had already exited',
  foreign: 'left alone: its pid now belongs to another program',
};

const noop = () => {};

/** Stops every recorded process of the lab in labDir, router first. */
async function stopAll(labDir, log = noop, { timeoutMs = 15000 } = {}) {
  const records = listRecords(labDir);
  const roleOf = (r) => r.role || r.name.replace(/-\d+$/, '').replace('data-service', 'service');
  const rank = (r) => {
    const i = STOP_ORDER.indexOf(roleOf(r));
    return i === -1 ? STOP_ORDER.length : i;
  };
  const stopped = [];
  for (let level = 0; level <= STOP_ORDER.length; level++) {
    const batch = records.filter((r) => rank(r) === level);
    if (!batch.length) continue;
    // The node stops in an order of its own, its pods first (../node/index.js).
    const done =
      STOP_ORDER[level] === 'node'
        ? await stopNode(labDir, batch)
        : await Promise.all(
            batch.map(async (r) => ({
              ...r,
              result: await stopRecorded(labDir, r, { timeoutMs, signal: STOP_SIGNAL[roleOf(r)] }),
            })),
          );
    for (const r of done) {
      stopped.push({ name: r.name, pid: r.pid, result: r.result });
      log(`  ${r.name.padEnd(23)} pid ${String(r.pid).padEnd(8)} ${OUTCOME[r.result]}`);
    }
  }
  // LAB_ROUTER=openshift's pod network: gone with its namespace, whatever stopped it.
  if (process.getuid?.() === 0 && (await removePodNetwork(labDir))) {
    log(`  ${podNetwork(labDir).netns} network namespace removed`);
  }
  return stopped;
}

/** Is every process of a recorded lab still running? Returns the names that are not. */
function deadProcesses(labDir) {
  forgetDrainedRouters(labDir);
  return listRecords(labDir)
    .filter((r) => processState(r) !== 'running')
    .map((r) => r.name);
}

module.exports = { stopAll, deadProcesses };
