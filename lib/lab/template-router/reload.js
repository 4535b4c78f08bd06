'use strict';
// lab:reload: the router's configuration rendered again and HAProxy reloaded the way the OpenShift
// router does (reload-haproxy in openshift/router): the new process takes the listening sockets
// over (`-x`) and tells the old one to finish (`-sf`), so no connection is refused.
const fs = require('node:fs');
const { writeLabState } = require('../common/state');
const {
  listRecords,
  processState,
  recordProcess,
  forget,
  forgetDrainedRouters,
  DRAINING,
} = require('../common/pids');
const {
  renderRouterConfig,
  writeRouterConfig,
  checkRouterConfig,
  routerPaths,
} = require('../haproxy/router-config');
const { labRoutes } = require('../common/routes');
const { startRouter, waitUntil } = require('../common/stack');
const { describeHaproxy } = require('../haproxy/binary');
const { showInfo } = require('../haproxy/runtime-api');

/** The lab's admin socket (the configuration's `stats socket`): the router's runtime API. */
const adminSocket = (labDir) => routerPaths(labDir).runtimeSocket;

/**
 * The lab's configuration rendered again from lab.json (what lab:up rendered, with today's
 * template, for the same HAProxy binary, OpenShift release, ALPN policy and balance override),
 * without the instances named in `exclude`.
 */
function renderFromState(state, { exclude = [] } = {}) {
  const { router } = state;
  return renderRouterConfig({
    labDir: state.labDir,
    router: { ...router, passthroughBalance: router.balance.passthrough.override },
    routes: labRoutes({ httpPort: router.httpPort, httpsPort: router.httpsPort }),
    instances: state.instances.filter((i) => !exclude.includes(i.name)),
    certs: state.certs,
    haproxy: describeHaproxy(router.haproxy.path),
    scaleRoutes: state.scaleRoutes ? state.scaleRoutes.routes : [],
  });
}

/** Router settings a reload may change, and what each accepts. */
const OVERRIDABLE = { maxconn: (v) => Number.isInteger(v) && v >= 1 && v <= 2000000 };

/** Throws unless every override names a setting a reload may change, with a value it accepts. */
function checkOverrides(overrides) {
  for (const [key, value] of Object.entries(overrides)) {
    if (!OVERRIDABLE[key])
      throw new Error(`a reload cannot change '${key}' (only ${Object.keys(OVERRIDABLE).join(', ')})`);
    if (!OVERRIDABLE[key](value)) throw new Error(`a reload cannot set ${key} to ${JSON.stringify(value)}`);
  }
}

/** lab.json after a reload: `pid` serves, and the lab has had one reload more. */
function recordServing(state, pid) {
  state.router.pid = pid;
  state.router.reloads = (state.router.reloads || 0) + 1;
  writeLabState(state.labDir, state);
}

/**
 * Reloads the template router of the running lab `state` (lab.json). `overrides` changes router
 * settings for this and later reloads ({ maxconn }; lab.json records them). `exclude` names
 * instances left out of this configuration, as the router drops a pod whose endpoint is gone (the
 * next reload without it puts them back); `restarted` names instances that come back (here the
 * same as any reload with them). `handover: false` leaves out `-x`, for comparison only: the new
 * process binds its own sockets beside the old ones (SO_REUSEPORT) and the old ones close theirs,
 * resetting the connections still waiting in their accept queues (what OpenShift 3 covered with
 * DROP_SYN_DURING_RESTART). Resolves { pid, oldPids, ms, reloads }: the new process, the processes
 * told to finish, how long the reload took until the new process answered on the admin socket,
 * and how many reloads this lab has had. A configuration HAProxy rejects changes nothing: the
 * running router keeps serving and the error says why.
 */
async function reload(state, { overrides = {}, exclude = [], handover = true, signal, log = () => {} } = {}) {
  const { labDir } = state;
  checkOverrides(overrides);
  Object.assign(state.router, overrides);
  const begin = Date.now();
  const unknown = exclude.filter((name) => !state.instances.some((i) => i.name === name));
  if (unknown.length) throw new Error(`no instance named ${unknown.join(', ')} in this lab`);
  const rendered = renderFromState(state, { exclude });
  const next = `${state.router.config}.next`;
  try {
    fs.writeFileSync(next, rendered.config);
    checkRouterConfig(next, state.router.haproxy.path);
  } finally {
    fs.rmSync(next, { force: true });
  }
  writeRouterConfig(labDir, rendered);

  forgetDrainedRouters(labDir);
  const routers = listRecords(labDir).filter((r) => r.role === 'router' && processState(r) === 'running');
  const current = routers.find((r) => r.name === 'router');
  if (!current) {
    throw new Error(
      `the lab's router is not running (no live router process in ${labDir}/pids): run 'npm run lab:down', then 'npm run lab:up'`,
    );
  }
  // As reload-haproxy does: every HAProxy still alive, including older ones still draining.
  const oldPids = routers.map((r) => r.pid);
  recordProcess(labDir, `${DRAINING}${current.pid}`, current.pid, { match: current.match, role: 'router' });
  forget(labDir, 'router');
  const socket = adminSocket(labDir);
  let record;
  try {
    record = await startRouter(labDir, {
      config: state.router.config,
      ports: { http: state.router.httpPort, https: state.router.httpsPort, stats: state.router.statsPort },
      cpus: state.router.cpus,
      signal,
      haproxy: state.router.haproxy.path,
      extraArgs: [...(handover ? ['-x', socket] : []), '-sf', ...oldPids.map(String)],
    });
    await waitUntil(async () => Number((await showInfo(socket)).Pid) === record.pid, {
      timeoutMs: 10000,
      what: `the new router process (pid ${record.pid}) answering on ${socket}`,
      signal,
      intervalMs: 20,
    });
  } catch (err) {
    const started = listRecords(labDir).find((r) => r.name === 'router' && r.pid !== current.pid);
    // Started with -sf, a new process that runs takes over whether or not it was seen answering (an
    // interrupted reload): it is the router, and lab.json says so. Otherwise the old one still is.
    if (started && processState(started) === 'running') recordServing(state, started.pid);
    else {
      if (started) forget(labDir, 'router');
      if (processState(current) === 'running') {
        forget(labDir, `${DRAINING}${current.pid}`);
        recordProcess(labDir, 'router', current.pid, { match: current.match, role: 'router' });
      }
    }
    throw err;
  }
  const ms = Date.now() - begin;
  recordServing(state, record.pid);
  log(`• router reloaded: pid ${record.pid} serves, ${oldPids.join(', ')} finishing (${ms} ms)`);
  return { pid: record.pid, oldPids, ms, reloads: state.router.reloads };
}

module.exports = { reload, renderFromState, adminSocket };
