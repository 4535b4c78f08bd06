'use strict';
// The matrix's vocabulary, shared by the k6 scripts (k6 imports CommonJS) and the Node runner: its
// cells from the axes of axes.js, and route host names, spelled once for k6 tags, results.json,
// the report, the lab's routes (lib/lab/common/routes.js) and the cluster scripts.
const axes = require('./axes.js');
const { cellVocabulary } = require('./cell-names.js');

// The axes' own names (TERMINATIONS, sizeLabel, AXES, …), passed on as they are; the examples
// are only the names' grammar's.
const { NAME_EXAMPLES, PATTERN_EXAMPLES, ...axisVocabulary } = axes;
/** The local lab's apps domain: route hosts under it resolve only through k6's `hosts` option. */
const LAB_APPS_DOMAIN = 'apps.lab.localhost';
/** The namespace (project) of the routes, in the lab and by default on a cluster. */
const DEFAULT_NAMESPACE = 'router-lab';

/**
 * The matrix's cells, from its axes (axes.js): cellName({ termination, pageSize, connection,
 * tlsSession }) → 'edge:1k:close:full' ('edge:1k:keepalive', 'http:1k:close': the session is part
 * of the name exactly where the cell has one, so no name hides which kind of close it measured),
 * parseCellName back (throws on a bad name), cellOf(values), cellTags, cellVariables.
 */
const CELLS = cellVocabulary(axes.AXES, { nameExamples: NAME_EXAMPLES, patternExamples: PATTERN_EXAMPLES });

/** The data service's name: its Deployment, Service and the prefix of its Routes. */
const SERVICE_NAME = 'data-service';

/** OpenShift's Route name for a termination: data-service-edge, … */
function routeName(termination) {
  return `${SERVICE_NAME}-${termination}`;
}

/** OpenShift's default host: <route>-<namespace>.<apps domain>. */
function routeHost(termination, namespace, appsDomain) {
  return `${routeName(termination)}-${namespace}.${appsDomain}`;
}

/** The scheme a client uses for a termination's route: every route but http is TLS. */
function routeScheme(termination) {
  return termination === 'http' ? 'http' : 'https';
}

/** A route's base URL; `port` only where it is not the scheme's default (the lab's 9080/9443). */
function routeUrl(termination, host, port) {
  return `${routeScheme(termination)}://${host}${port ? `:${port}` : ''}`;
}

/** The variable that names a route's URL explicitly: URL_HTTP, URL_EDGE, … */
function urlVariable(termination) {
  return `URL_${termination.toUpperCase()}`;
}

/** The termination of an OpenShift Route object: spec.tls.termination, or http without TLS. */
function routeTermination(route) {
  return route?.spec?.tls?.termination ?? 'http';
}

/** The in-cluster name of the service, which its serving certificate (service CA) is issued for. */
function serviceHost(namespace) {
  return `${SERVICE_NAME}.${namespace}.svc`;
}

module.exports = {
  ...axisVocabulary,
  LAB_APPS_DOMAIN,
  DEFAULT_NAMESPACE,
  CELLS,
  cellName: CELLS.cellName,
  parseCellName: CELLS.parseCellName,
  cellOf: CELLS.cellOf,
  valuesOf: CELLS.valuesOf,
  cellTags: CELLS.cellTags,
  cellVariables: CELLS.cellVariables,
  readCellVariables: CELLS.readCellVariables,
  SERVICE_NAME,
  routeName,
  routeHost,
  routeScheme,
  routeUrl,
  urlVariable,
  routeTermination,
  serviceHost,
};
