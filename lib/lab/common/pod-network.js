'use strict';
// LAB_ROUTER=openshift's and gateway's pod network: a network namespace of the lab's own for Redis
// and the instances, joined to the host by a veth in a /27 of 198.18.0.0/17 (RFC 2544), since the
// API server refuses loopback endpoints. Nothing of the lab listens on the host's side of the pair.
const crypto = require('node:crypto');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { createNetns, netnsSupport } = require('../../core/netns');

const run = promisify(execFile);

/** A lab's block: the host's end, the pods' end (Redis), then one address per instance (≤ 16). */
const BLOCK_BITS = 5;
const INSTANCES_MAX = 16;

/**
 * The namespace, interfaces and addresses for the lab in `labDir`: derived from its path, so that
 * two labs do not collide and lab:down finds them again after a crash. Each instance has an
 * address of its own, as a pod does: istiod keeps one endpoint per address and port name.
 */
function podNetwork(labDir) {
  const digest = crypto.createHash('sha256').update(labDir).digest();
  const id = digest.toString('hex').slice(0, 8);
  // 1,024 blocks in 198.18.0.0/17: the rest of 198.18.0.0/15 is the node's, with LAB_PODS=yes
  // (../node/addresses.js).
  const base = (digest.readUInt16BE(0) % 2 ** (15 - BLOCK_BITS)) << BLOCK_BITS;
  const address = (offset) => `198.18.${(base + offset) >> 8}.${(base + offset) & 255}`;
  return {
    netns: `routerlab-pods-${id}`,
    hostIf: `rlab${id.slice(0, 6)}h`,
    podIf: `rlab${id.slice(0, 6)}p`,
    prefixLength: 32 - BLOCK_BITS,
    hostAddress: address(0),
    podAddress: address(1),
    instanceAddresses: Array.from({ length: INSTANCES_MAX }, (_, i) => address(2 + i)),
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
    await run('ip', ['addr', 'add', `${net.hostAddress}/${net.prefixLength}`, 'dev', net.hostIf]);
    await run('ip', ['link', 'set', net.hostIf, 'up']);
    for (const address of [net.podAddress, ...net.instanceAddresses]) {
      await run('ip', ['-n', net.netns, 'addr', 'add', `${address}/${net.prefixLength}`, 'dev', net.podIf]);
    }
    await run('ip', ['-n', net.netns, 'link', 'set', net.podIf, 'up']);
  } catch (err) {
    await ns.remove();
    throw new Error(`could not join the pod network ${net.netns} to the host: ${err.message}`, {
      cause: err,
    });
  }
  return net;
}

/** The lab's instances and Redis move into `network`: lab.network, each instance at its address. */
function joinPodNetwork(lab, network) {
  lab.network = { host: network.podAddress, netns: network.netns, ...network };
  lab.instances = lab.instances.map((i, k) => ({ ...i, host: network.instanceAddresses[k] }));
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

module.exports = { podNetwork, podNetworkProblem, createPodNetwork, joinPodNetwork, removePodNetwork };
