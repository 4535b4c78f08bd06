'use strict';
// Every Prometheus query the suite runs, in one place: per kind of target, the series of the
// router's, the data service's and the in-cluster k6 runners' CPU, and the router's own /metrics.
// Each is a selector read raw over a sample's window, its rate computed here (docs/openshift.md).

const ROUTER_NAMESPACE = 'openshift-ingress';

/** cAdvisor's per-container CPU (kubelet), as OpenShift's monitoring scrapes it. */
const openshift = {
  name: 'openshift',
  routerCpu: ({ ingressController }) =>
    `container_cpu_usage_seconds_total{namespace="${ROUTER_NAMESPACE}",container="router",pod=~"router-${ingressController}-.+"}`,
  serviceCpu: ({ namespace }) =>
    `container_cpu_usage_seconds_total{namespace="${namespace}",container="data-service"}`,
  runnerCpu: ({ namespace, testRun }) =>
    `container_cpu_usage_seconds_total{namespace="${namespace}",pod=~"${testRun}-[0-9]+-.+",container!="",container!="POD"}`,
  // Which series is which pod or process.
  seriesName: (metric) => metric.pod,
};

/** The lab (LAB_ROUTER=openshift): prometheus-process-exporter's groups (lib/lab/openshift-router/monitoring.js). */
const lab = {
  name: 'lab',
  routerCpu: () => 'namedprocess_namegroup_cpu_seconds_total{groupname="router"}',
  serviceCpu: () => 'namedprocess_namegroup_cpu_seconds_total{groupname=~"data-service-.+"}',
  runnerCpu: null,
  seriesName: (metric) => metric.groupname,
};

const PROFILES = { openshift, lab };

/**
 * The router's own metrics (openshift-router's HAProxy exporter, pkg/router/metrics), as the
 * cluster's Prometheus labels them: the scrape target's namespace and pod, so the router's own
 * `namespace` label (the Route's) becomes `exported_namespace`. The lab's Prometheus labels its
 * router target the same way (lib/lab/openshift-router/monitoring.js).
 */
const routerPods = ({ ingressController }) =>
  `namespace="${ROUTER_NAMESPACE}",pod=~"router-${ingressController}-.+"`;
const ROUTER_METRICS = {
  // HTTP responses of the Route's backend, by class (http, edge, re-encrypt).
  responses: (t) =>
    `haproxy_backend_http_responses_total{${routerPods(t)},exported_namespace="${t.namespace}",route="${t.routeName}"}`,
  // Connections to the Route's backend (every termination; passthrough's only figure).
  connections: (t) =>
    `haproxy_backend_connections_total{${routerPods(t)},exported_namespace="${t.namespace}",route="${t.routeName}"}`,
  // Open client connections, all frontends of the IngressController's pods.
  currentSessions: (t) => `haproxy_frontend_current_sessions{${routerPods(t)}}`,
};

/** The profile named `name`, or an error listing the known ones. */
function profileNamed(name) {
  const profile = PROFILES[name];
  if (!profile)
    throw new Error(`unknown Prometheus profile '${name}': one of ${Object.keys(PROFILES).join(', ')}`);
  return profile;
}

module.exports = { PROFILES, ROUTER_METRICS, ROUTER_NAMESPACE, profileNamed };
