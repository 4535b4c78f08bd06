'use strict';
// A cluster target read from its API: the data-service Routes of the namespace, as
// `oc get routes -n <namespace>` shows them (host, termination), and the router that admitted
// them: its IngressController's threads and replicas. What cannot be read is said, not guessed.
const { kubeClient } = require('../lab/kube/api');
const { readKubeconfig } = require('../lab/kube/kubeconfig');
const { OPENSHIFT_DEFAULTS } = require('../lab/common/options');
const { TERMINATIONS, routeName, routeScheme } = require('../../k6/lib/cells');

const OPERATOR_NAMESPACE = 'openshift-ingress-operator';
// OpenShift's defaults where an IngressController leaves them unset.
const DEFAULT_THREADS = OPENSHIFT_DEFAULTS.threads;

const terminationOf = (route) => (route.spec.tls && route.spec.tls.termination) || 'http';

/** The host a router admitted the Route on, and that router's name; null when none admitted it. */
function admitted(route) {
  const ingress = (route.status?.ingress || []).find((i) =>
    (i.conditions || []).some((c) => c.type === 'Admitted' && c.status === 'True'),
  );
  return ingress ? { host: ingress.host || route.spec.host, routerName: ingress.routerName || null } : null;
}

/**
 * Each termination's Route from a RouteList: { routes: { [termination]: { name, host, url,
 * routerName } }, missing: [{ termination, reason }] }. Pure. `ports`: { http, https }, the
 * router's (80 and 443 on a cluster; the URL leaves a default port out).
 */
function routesFromList(items, { namespace, ports = { http: 80, https: 443 } }) {
  const routes = {};
  const missing = [];
  for (const termination of TERMINATIONS) {
    const name = routeName(termination);
    const route = items.find((r) => r.metadata.name === name);
    const seen = route && admitted(route);
    const reason = !route
      ? `Route ${name} is not in namespace ${namespace} ('oc get routes -n ${namespace}')`
      : terminationOf(route) !== termination
        ? `Route ${name} terminates '${terminationOf(route)}', not '${termination}'`
        : !seen
          ? `Route ${name} is not admitted by any router ('oc describe route ${name} -n ${namespace}')`
          : null;
    if (reason) {
      missing.push({ termination, reason });
      continue;
    }
    const scheme = routeScheme(termination);
    const port = ports[scheme];
    const url = `${scheme}://${seen.host}${port === (scheme === 'http' ? 80 : 443) ? '' : `:${port}`}`;
    routes[termination] = { name, host: seen.host, url, routerName: seen.routerName };
  }
  return { routes, missing };
}

/** { threads, replicas, source } of an IngressController object. */
function routerOf(controller) {
  const spec = controller.spec || {};
  return {
    ingressController: controller.metadata.name,
    threads: spec.tuningOptions?.threadCount ?? DEFAULT_THREADS,
    replicas: controller.status?.availableReplicas ?? spec.replicas ?? null,
    source: `IngressController ${OPERATOR_NAMESPACE}/${controller.metadata.name}`,
  };
}

/**
 * Reads the cluster through the kubeconfig's current context: { api: { server, context }, routes,
 * missing, router } where router is { ingressController, threads, replicas, source } or
 * { error } when the IngressController cannot be read (it needs cluster-reader rights).
 * Throws when the Routes themselves cannot be listed: nothing can run without them.
 */
async function readCluster({ kubeconfig, namespace, ports }) {
  const config = readKubeconfig(kubeconfig);
  const client = kubeClient(config);
  let list;
  try {
    list = await client.get(`/apis/route.openshift.io/v1/namespaces/${namespace}/routes`);
  } catch (err) {
    throw new Error(`cannot list the Routes of ${namespace} at ${config.server}: ${err.message}`, {
      cause: err,
    });
  }
  const { routes, missing } = routesFromList(list.items || [], { namespace, ports });
  const routerName = Object.values(routes).find((r) => r.routerName)?.routerName || 'default';
  let router;
  try {
    const controller = await client.get(
      `/apis/operator.openshift.io/v1/namespaces/${OPERATOR_NAMESPACE}/ingresscontrollers/${routerName}`,
    );
    router = routerOf(controller);
  } catch (err) {
    router = { ingressController: routerName, error: err.message };
  }
  return { api: { server: config.server, context: config.context }, routes, missing, router };
}

module.exports = { readCluster, routesFromList, routerOf, DEFAULT_THREADS };
