'use strict';
// What a lab does or does not do by whether it runs pods (LAB_PODS=yes), and why: plain data, read
// beside each router's own `unsupported`. The commands refuse these; reliability skips them.
const PODS = "the instances are pods on the lab's node";
const REDIS = "Redis runs as pods on the lab's node";
const NO_PODS = 'the lab runs no pods (LAB_ROUTER=openshift LAB_PODS=yes does)';

/** A lab with pods. */
const WITH_PODS = {
  'reload-exclude': `${PODS}, whose EndpointSlices the controller owns: fail a pod's readiness instead`,
  endpoints: `${PODS}, whose EndpointSlices the controller owns: pod-delete is its pods form`,
  'redis-kill': `${REDIS}; this scenario stops a redis-server the lab started: redis-pod-delete is its pods form`,
  durability: `${REDIS}; this scenario stops a redis-server the lab started: redis-pod-delete is its pods form`,
  'redis-failover': `${REDIS}; this scenario stops a redis-server the lab started: redis-pod-delete is its pods form`,
  soak: `${PODS}; this scenario samples processes the lab started`,
};

/** A lab of processes. */
const WITHOUT_PODS = {
  'pod-delete': `${NO_PODS}; endpoints is its processes form`,
  'redis-pod-delete': `${NO_PODS}; durability and redis-failover are its processes form`,
};

module.exports = { WITH_PODS, WITHOUT_PODS };
