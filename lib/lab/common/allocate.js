'use strict';
// Which ports the lab listens on: the fixed ones from the knobs, or distinct free ports where a
// knob is 0, and the list preflight checks (each with what it is for and the knob that moves it).
const { freePort } = require('../../core/ports');
const { portKnob } = require('./options');
const { routerKind } = require('./router-kinds');
const { SERVICE_NAME } = require('../../../k6/lib/cells');
const { REDIS_BUS_OFFSET } = require('../../core/redis-server');

const REDIS_CLUSTER_SIZE = 6;

/**
 * Fixed or free ports for everything; returns { ports, instances, redisPorts }. Ports of 0 become
 * distinct free ports (for Redis Cluster, with its bus port +10000 free too).
 */
async function allocatePorts(opts) {
  const fixed = Object.values(opts.ports).filter((p) => p !== 0);
  const taken = new Set(fixed);
  const pick = async ({ withBus = false } = {}) => {
    for (;;) {
      const port = await freePort('127.0.0.1', { pairedOffset: withBus ? REDIS_BUS_OFFSET : 0 });
      if (taken.has(port) || (withBus && taken.has(port + REDIS_BUS_OFFSET))) continue;
      taken.add(port);
      if (withBus) taken.add(port + REDIS_BUS_OFFSET);
      return port;
    }
  };
  const ports = { ...opts.ports };
  for (const key of ['http', 'https', 'stats']) if (ports[key] === 0) ports[key] = await pick();
  // What the router's backend runs beside it (the real router's API server, etcd, monitoring).
  for (const key of routerKind(opts.router).extraPorts) ports[key] = await pick();
  const instances = [];
  for (let i = 0; i < opts.replicas; i++) {
    const auto = opts.ports.serviceBase === 0;
    instances.push({
      name: `${SERVICE_NAME}-${i + 1}`,
      port: auto ? await pick() : opts.ports.serviceBase + 2 * i,
      tlsPort: auto ? await pick() : opts.ports.serviceBase + 2 * i + 1,
    });
  }
  const redisCount = opts.redisMode === 'cluster' ? REDIS_CLUSTER_SIZE : 1;
  const redisPorts = [];
  for (let i = 0; i < redisCount; i++) {
    redisPorts.push(
      opts.ports.redis === 0 ? await pick({ withBus: opts.redisMode === 'cluster' }) : opts.ports.redis + i,
    );
  }
  return { ports, instances, redisPorts };
}

/** Every port the lab will listen on, with what it is for and the knob that moves it. */
function wantedPorts({ ports, instances, redisPorts }, redisMode) {
  const wanted = [
    { port: ports.http, what: 'router HTTP', knob: portKnob('http') },
    { port: ports.https, what: 'router HTTPS', knob: portKnob('https') },
    { port: ports.stats, what: 'router stats', knob: portKnob('stats') },
  ];
  for (const inst of instances) {
    wanted.push({ port: inst.port, what: `${inst.name} HTTP`, knob: portKnob('serviceBase') });
    wanted.push({ port: inst.tlsPort, what: `${inst.name} HTTPS`, knob: portKnob('serviceBase') });
  }
  redisPorts.forEach((port, i) => {
    wanted.push({ port, what: `redis-${i + 1}`, knob: portKnob('redis') });
    if (redisMode === 'cluster') {
      wanted.push({
        port: port + REDIS_BUS_OFFSET,
        what: `redis-${i + 1} cluster bus`,
        knob: portKnob('redis'),
      });
    }
  });
  return wanted;
}

module.exports = { allocatePorts, wantedPorts, REDIS_CLUSTER_SIZE, REDIS_BUS_OFFSET };
