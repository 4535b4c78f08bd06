'use strict';
// What a lab with pods (LAB_PODS=yes) does not do yet, and why: plain data, read by the lab's
// plumbing beside each router's own `unsupported`. The commands refuse these, and reliability skips them.
const PODS = "the instances are pods on the lab's node";
const REDIS = "Redis runs as pods on the lab's node";

module.exports = {
  'reload-exclude': `${PODS}, whose EndpointSlices the controller owns: fail a pod's readiness instead`,
  endpoints: `${PODS}, whose EndpointSlices the controller owns; this scenario writes them by hand`,
  'redis-kill': `${REDIS}; this scenario stops a redis-server the lab started`,
  durability: `${REDIS}; this scenario stops a redis-server the lab started`,
  'redis-failover': `${REDIS}; this scenario stops a redis-server the lab started`,
  soak: `${PODS}; this scenario samples processes the lab started`,
};
