'use strict';
// The matrix's vocabulary, shared by the k6 scripts (k6 imports CommonJS) and the Node runner:
// terminations, connection modes, page sizes, cell names and route host names, spelled once for
// k6 tags, results.json, the report, the lab's routes (lib/lab/shared/routes.js) and the cluster scripts.
const { read } = require('./grammar.js');

const TERMINATIONS = ['http', 'edge', 'passthrough', 'reencrypt'];
/** The local lab's apps domain: route hosts under it resolve only through k6's `hosts` option. */
const LAB_APPS_DOMAIN = 'apps.lab.localhost';
/** The namespace (project) of the routes, in the lab and by default on a cluster. */
const DEFAULT_NAMESPACE = 'router-lab';
const CONNECTIONS = ['keepalive', 'close'];
/**
 * How a close cell's TLS connections begin: every one with a full handshake (signature and key
 * exchange), or resuming the session of the one before (a ticket: no signature, no key exchange).
 * Only close cells through a TLS route have this dimension: keep-alive does one handshake per
 * connection, and http has no TLS.
 */
const TLS_SESSIONS = ['full', 'resumed'];
const DEFAULT_SIZES = ['1k', '4k'];
const MAX_PAGE_BYTES = 1024 * 1024; // the data service serves up to 1 MiB

/** '1k' → 1024, '4096' → 4096, '1m' → 1048576; throws on anything else. */
function parseSize(token) {
  const bytes = read('size', token);
  if (bytes === undefined) throw new Error(`page size must look like 1024, 1k, 4k or 64k, not '${token}'`);
  if (bytes < 1 || bytes > MAX_PAGE_BYTES) {
    throw new Error(`page size must be between 1 byte and 1 MiB, not '${token}'`);
  }
  return bytes;
}

/** 1024 → '1k', 1048576 → '1m', 1000 → '1000': the form used in cell names and URLs. */
function sizeLabel(bytes) {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)}m`;
  if (bytes % 1024 === 0) return `${bytes / 1024}k`;
  return String(bytes);
}

/** Whether cells of this termination and connection mode have a TLS session dimension. */
function hasTlsSession(termination, connection) {
  return connection === 'close' && termination !== 'http';
}

/**
 * 'edge:1k:keepalive', 'http:1k:close', 'edge:1k:close:resumed': the session is part of the name
 * exactly where the cell has one (hasTlsSession), so no name hides which kind of close it measured.
 */
function cellName(termination, pageBytes, connection, tlsSession = null) {
  const name = `${termination}:${sizeLabel(pageBytes)}:${connection}`;
  return hasTlsSession(termination, connection) ? `${name}:${tlsSession}` : name;
}

/**
 * 'edge:1k:close:full' → { termination, pageSize, connection, tlsSession, name }; tlsSession is
 * null where the cell has none. Throws on a bad name.
 */
function parseCellName(name) {
  const parts = String(name).split(':');
  const [termination, size, connection, tlsSession = null] = parts;
  if (parts.length < 3 || parts.length > 4) {
    throw new Error(
      `cell '${name}' must be termination:size:connection[:session], e.g. edge:1k:keepalive or edge:1k:close:resumed`,
    );
  }
  if (!TERMINATIONS.includes(termination)) {
    throw new Error(`cell '${name}': termination must be one of ${TERMINATIONS.join(', ')}`);
  }
  if (!CONNECTIONS.includes(connection)) {
    throw new Error(`cell '${name}': connection must be one of ${CONNECTIONS.join(', ')}`);
  }
  if (hasTlsSession(termination, connection) ? !TLS_SESSIONS.includes(tlsSession) : tlsSession !== null) {
    throw new Error(
      hasTlsSession(termination, connection)
        ? `cell '${name}': a ${termination} close cell ends in :${TLS_SESSIONS.join(' or :')} (its TLS session)`
        : `cell '${name}': only close cells through a TLS route have a TLS session part`,
    );
  }
  const pageSize = parseSize(size);
  return {
    name: cellName(termination, pageSize, connection, tlsSession),
    termination,
    pageSize,
    connection,
    tlsSession,
  };
}

/** Tags every k6 metric of a cell carries, so thresholds and outputs can select one cell. */
function cellTags(termination, pageBytes, connection, tlsSession = null) {
  const tags = {
    cell: cellName(termination, pageBytes, connection, tlsSession),
    termination,
    page_size: sizeLabel(pageBytes),
    connection,
  };
  if (hasTlsSession(termination, connection)) tags.tls_session = tlsSession;
  return tags;
}

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
  TERMINATIONS,
  LAB_APPS_DOMAIN,
  DEFAULT_NAMESPACE,
  CONNECTIONS,
  TLS_SESSIONS,
  DEFAULT_SIZES,
  MAX_PAGE_BYTES,
  parseSize,
  sizeLabel,
  hasTlsSession,
  cellName,
  parseCellName,
  cellTags,
  SERVICE_NAME,
  routeName,
  routeHost,
  routeScheme,
  routeUrl,
  urlVariable,
  routeTermination,
  serviceHost,
};
