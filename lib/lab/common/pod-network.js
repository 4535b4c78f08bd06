'use strict';
// LAB_ROUTER=openshift's pod network: a network namespace of the lab's own for Redis and the
// instances, joined to the host by a veth /31 in 198.18.0.0/17 (RFC 2544), since the API server
// refuses loopback endpoints. Nothing of the lab listens on the host's side of the pair.
const crypto = require('node:crypto');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { createNetns, netnsSupport } = require('../../core/netns');

const run = promisify(execFile);

/**
 * The namespace, interfaces and addresses for the lab in `labDir`: derived from its path, so that
 * two labs do not collide and lab:down finds them again after a crash.
 */
function podNetwork(labDir) {
  const digest = crypto.createHash('sha256').update(labDir).digest();
  const id = digest.toString('hex').slice(0, 8);
  // A /31 pair (RFC 3021: no network or broadcast address to avoid) in 198.18.0.0/17: the rest
  // of 198.18.0.0/15 is the node's, with LAB_PODS=yes (../node/addresses.js).
  const third = digest[0] & 127;
  const fourth = (digest[2] & 127) * 2;
  const net = `198.18.${third}`;
  return {
    netns: `routerlab-pods-${id}`,
    hostIf: `rlab${id.slice(0, 6)}h`,
    podIf: `rlab${id.slice(0, 6)}p`,
    hostAddress: `${net}.${fourth}`,
    podAddress: `${net}.${fourth + 1}`,
  };
}

/** Why the pod network cannot be made here, or null. */
function podNetworkProblem() {
  const support = netnsSupport();
  return support.ok
    ? null
    : `LAB_ROUTER=openshift and gateway run the backends in a network namespace, which ${support.why}`;
}

/** Makes the namespace and the veth pair with their addresses; resolves podNetwork(labDir). */
async function createPodNetwork(labDir) {
  const net = podNetwork(labDir);
  await removePodNetwork(labDir); // what a killed lab left
  const ns = await createNetns(net.netns);
  try {
    await run('ip', [
      'link',
      'add',
      net.hostIf,
      'type',
      'veth',
      'peer',
      'name',
      net.podIf,
      'netns',
      net.netns,
    ]);
    await run('ip', ['addr', 'add', `${net.hostAddress}/31`, 'dev', net.hostIf]);
    await run('ip', ['link', 'set', net.hostIf, 'up']);
    await run('ip', ['-n', net.netns, 'addr', 'add', `${net.podAddress}/31`, 'dev', net.podIf]);
    await run('ip', ['-n', net.netns, 'link', 'set', net.podIf, 'up']);
  } catch (err) {
    await ns.remove();
    throw new Error(`could not join the pod network ${net.netns} to the host: ${err.message}`, {
      cause: err,
    });
  }
  return net;
}

/** Removes the namespace (and with it both ends of the veth pair); resolves whether one existed. */
async function removePodNetwork(labDir) {
  const { netns, hostIf } = podNetwork(labDir);
  const existed = await run('ip', ['netns', 'delete', netns]).then(
    () => true,
    () => false,
  );
  await run('ip', ['link', 'delete', hostIf]).catch(() => {});
  return existed;
}

module.exports = { podNetwork, podNetworkProblem, createPodNetwork, removePodNetwork };
