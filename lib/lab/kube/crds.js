'use strict';
// CustomResourceDefinitions installed as a cluster's operators would, and usable once Established.
const { setTimeout: sleep } = require('node:timers/promises');
const { ensure } = require('./api');

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** Waits until a CRD is Established. */
async function waitEstablished(admin, crd, { signal, timeoutMs }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await admin.get(`${CRDS}/${crd.metadata.name}`);
    const conditions = found.status?.conditions || [];
    if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) return;
    if (Date.now() > deadline)
      throw new Error(`CRD ${crd.metadata.name} was not established in ${timeoutMs} ms`);
    await sleep(100, undefined, { signal });
  }
}

/** Creates `crd`, or replaces the one of that name (an operator's own over a stand-in). */
async function replaceCrd(admin, crd) {
  try {
    return await admin.post(CRDS, crd);
  } catch (err) {
    if (err.status !== 409) throw err;
  }
  const { resourceVersion } = (await admin.get(`${CRDS}/${crd.metadata.name}`)).metadata;
  return admin.put(`${CRDS}/${crd.metadata.name}`, {
    ...crd,
    metadata: { ...crd.metadata, resourceVersion },
  });
}

/**
 * Creates each CRD of `crds` and waits until each is Established. One that exists stays, unless
 * `replace`: then it becomes the one given.
 */
async function installCrds(admin, crds, { signal, timeoutMs = 60000, replace = false } = {}) {
  for (const crd of crds) await (replace ? replaceCrd(admin, crd) : ensure(admin, CRDS, crd));
  for (const crd of crds) await waitEstablished(admin, crd, { signal, timeoutMs });
}

module.exports = { installCrds };
