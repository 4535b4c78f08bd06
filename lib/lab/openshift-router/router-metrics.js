'use strict';
// The real router's own figures for its reloads, from its /metrics: how long writing the
// configuration (the render) and reloading HAProxy took, as openshift-router's
// template_router_* summaries count them; and the memory of each HAProxy it runs.
const { request } = require('../common/client');
const { childrenOf, readProcFile, readStat, megabytes } = require('../../core/proc');
const { sumSeries } = require('../common/metrics-text');

const SERIES = {
  reloads: 'template_router_reload_seconds_count',
  reloadSeconds: 'template_router_reload_seconds_sum',
  renders: 'template_router_write_config_seconds_count',
  renderSeconds: 'template_router_write_config_seconds_sum',
};

/** { reloads, reloadSeconds, renders, renderSeconds } so far, from the router's /metrics. */
async function reloadCounters(router) {
  const auth = Buffer.from(`${router.stats.username}:${router.stats.password}`).toString('base64');
  const res = await request(router.metricsUrl, {
    headers: { authorization: `Basic ${auth}` },
    timeoutMs: 5000,
  });
  if (res.status !== 200) throw new Error(`${router.metricsUrl} answered ${res.status}`);
  const values = sumSeries(res.body.toString('utf8'), Object.values(SERIES));
  return Object.fromEntries(Object.entries(SERIES).map(([key, name]) => [key, values[name] ?? 0]));
}

/** The reloads between two readings: { count, renderMs, reloadMs } (means per reload), pure. */
function reloadsBetween(before, after) {
  const per = (seconds, count) => (count > 0 ? Number(((seconds / count) * 1000).toFixed(1)) : null);
  return {
    count: after.reloads - before.reloads,
    renderMs: per(after.renderSeconds - before.renderSeconds, after.renders - before.renders),
    reloadMs: per(after.reloadSeconds - before.reloadSeconds, after.reloads - before.reloads),
  };
}

/**
 * Resident memory of each HAProxy under the router (host pid `routerPid`), newest first: the
 * serving one, then older ones still finishing their connections. [{ pid, rssMb }]
 */
function haproxyMemory(routerPid) {
  return childrenOf(routerPid)
    .filter((pid) => /^haproxy\n?$/.test(readProcFile(pid, 'comm') || ''))
    .map((pid) => ({ pid, stat: readStat(pid) }))
    .filter(({ stat }) => stat && stat.state !== 'Z')
    .sort((a, b) => b.stat.startTime - a.stat.startTime)
    .map(({ pid, stat }) => ({ pid, rssMb: megabytes(stat.rssBytes) }));
}

module.exports = { reloadCounters, reloadsBetween, haproxyMemory };
