'use strict';
// The lab's certificates, generated at every lab:up into <LAB_DIR>/certs (never committed), as
// OpenShift's ingress and service-ca operators would make them.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { generateKeys, createCA, createServerCert } = require('../../core/certs');
const { APPS_DOMAIN, SERVICE_HOST } = require('./routes');

// The data service's TLS_TICKET_KEYS_FILE holds Node's session ticket keys, 48 bytes (its
// configuration, docs/data-service.md): written here, never imported (the lab uses the service
// through its contract, as a cluster does).
const TICKET_KEYS_BYTES = 48;

/** LAB_ROUTER_KEY → the key type lib/core/certs.js makes. */
const ROUTER_KEY_TYPES = { rsa2048: 'rsa', 'ecdsa-p256': 'ec' };

/**
 * Makes, in <labDir>/certs (their keys side by side: core/certs.js generateKeys):
 *   - a lab CA, and the router's default wildcard certificate *.apps.lab.localhost it signs
 *     (served on edge and re-encrypt) as the ingress operator serves it: the leaf followed by its
 *     CA, so a full handshake sends a chain of two;
 *   - for each of `routeHosts` (with LAB_ROUTER_HTTP2), a certificate of its own (a Route's
 *     spec.tls.certificate): the router offers h2 only to routes with their own certificate;
 *   - a service CA and the data-service serving certificate for data-service.router-lab.svc
 *     (served on passthrough, verified by the router on re-encrypt). Like a service-ca
 *     certificate it does NOT name the route host. `serviceHosts` adds the hosts of LAB_ROUTES's
 *     Services, which the router verifies on their re-encrypt Routes; and the service's session
 *     ticket keys, shared by every instance.
 * `routerKey` (LAB_ROUTER_KEY): the router default certificate's key, RSA 2048 as OpenShift's
 * ingress operator generates it, or ECDSA P-256, so the key's price in a full handshake can be
 * measured.
 */
async function createLabCerts(labDir, { routerKey = 'rsa2048', routeHosts = [], serviceHosts = [] } = {}) {
  const keyType = ROUTER_KEY_TYPES[routerKey];
  if (!keyType)
    throw new Error(`unknown router key '${routerKey}' (${Object.keys(ROUTER_KEY_TYPES).join(', ')})`);
  const dir = path.join(labDir, 'certs');
  const routeNames = routeHosts.map((host) => `route-${host.split('.')[0]}`);
  const keys = await generateKeys(dir, [
    { name: 'lab-ca' },
    { name: 'router-default', keyType },
    ...routeNames.map((name) => ({ name, keyType })),
    { name: 'service-ca' },
    { name: 'data-service' },
  ]);
  const labCA = createCA(dir, 'lab-ca', { commonName: 'Router Lab CA', key: keys['lab-ca'] });
  const routerDefault = createServerCert(dir, 'router-default', {
    ca: labCA,
    dnsNames: [`*.${APPS_DOMAIN}`],
    key: keys['router-default'],
    withCA: true,
  });
  const routeCerts = Object.fromEntries(
    routeHosts.map((host, i) => [
      host,
      createServerCert(dir, routeNames[i], {
        ca: labCA,
        dnsNames: [host],
        key: keys[routeNames[i]],
        withCA: true,
      }).pem,
    ]),
  );
  const serviceCA = createCA(dir, 'service-ca', {
    commonName: `openshift-service-serving-signer@${Math.floor(Date.now() / 1000)}`,
    key: keys['service-ca'],
  });
  const serving = createServerCert(dir, 'data-service', {
    ca: serviceCA,
    dnsNames: [SERVICE_HOST, `${SERVICE_HOST}.cluster.local`, ...serviceHosts],
    key: keys['data-service'],
  });
  // One set of session ticket keys for every instance: a passthrough client's ticket then resumes
  // on whichever instance the router picks, as the resumed cells claim (data-service's
  // TLS_TICKET_KEYS_FILE; each pod has keys of its own unless a cluster shares them too).
  const serviceTicketKeys = path.join(dir, 'data-service-ticket-keys');
  fs.writeFileSync(serviceTicketKeys, crypto.randomBytes(TICKET_KEYS_BYTES), { mode: 0o600 });
  return {
    dir,
    labCA: labCA.cert,
    serviceCA: serviceCA.cert,
    defaultPem: routerDefault.pem,
    routeCerts,
    serviceCert: serving.cert,
    serviceKey: serving.key,
    serviceTicketKeys,
  };
}

module.exports = { createLabCerts };
