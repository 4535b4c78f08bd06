'use strict';
// The real router's processes: openshift-router as the init of private mount and PID namespaces
// (its template and reload script hard-code /var/lib/haproxy and /usr/sbin/haproxy, and the script
// signals every process named haproxy), and the HAProxys it starts, as the host sees them.
const { readProcFile, readStat, childrenOf } = require('../../core/proc');
const { routerBin } = require('../../setup/openshift-router-build');
const { routerPaths } = require('../haproxy/router-config');
const { workDir } = require('./work-dir');

/** The command that sets up the router's namespaces, mounts its files and runs it as their init. */
function namespacedCommand(labDir, { haproxy, release }) {
  const script =
    'set -e; mount --bind "$1" /var/lib/haproxy; mount --bind "$2" /var/lib/haproxy/run; ' +
    'mount --bind "$3" /usr/sbin/haproxy; cd /var/lib/haproxy/conf; exec "$4" --v=2';
  return {
    file: 'unshare',
    args: [
      '--mount',
      '--pid',
      '--fork',
      '--mount-proc',
      '--propagation',
      'private',
      '--',
      'sh',
      '-c',
      script,
      'sh',
      workDir(labDir),
      routerPaths(labDir).runDir,
      haproxy,
      routerBin(release),
    ],
  };
}

/** The pid (as the host sees it) of unshare's child once it runs openshift-router, or null. */
function routerInit(unsharePid, binary) {
  const init = childrenOf(unsharePid).find((pid) => (readProcFile(pid, 'cmdline') || '').startsWith(binary));
  return init || null;
}

/**
 * The HAProxy process serving now under openshift-router (host pid `routerPid`): its newest
 * haproxy child; older ones are finishing their connections after a reload. Null when none runs.
 */
function servingHaproxy(routerPid) {
  const haproxies = childrenOf(routerPid)
    .filter((pid) => /^haproxy\n?$/.test(readProcFile(pid, 'comm') || ''))
    .filter((pid) => readStat(pid) && readStat(pid).state !== 'Z');
  const started = (pid) => readStat(pid)?.startTime ?? 0;
  return haproxies.sort((a, b) => started(b) - started(a))[0] ?? null;
}

module.exports = { namespacedCommand, routerInit, servingHaproxy };
