'use strict';
// The durability scenario's client: it must know the id of every write the service acknowledged,
// which no load generator reports, so it is a few keep-alive loops of POST /api/records that keep
// each 201's id and time, and a reader that asks for every one of them afterwards.
const { setTimeout: sleep } = require('node:timers/promises');
const { request, keepAliveAgent } = require('../lab/common/client');

const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * Starts `concurrency` loops of POST `url` (a records URL over plain HTTP). Returns
 * { acknowledged: [{ id, at }], failures: { kind: count }, stop() → { requests } }.
 */
function startWriters({ url, concurrency = 4, pauseAfterFailureMs = 20 }) {
  const agent = keepAliveAgent({ maxSockets: concurrency });
  const acknowledged = [];
  const failures = {};
  let requests = 0;
  let stopped = false;
  const fail = (kind) => {
    failures[kind] = (failures[kind] || 0) + 1;
  };
  const loop = async () => {
    while (!stopped) {
      requests++;
      try {
        const res = await request(url, {
          method: 'POST',
          headers: JSON_HEADERS,
          body: JSON.stringify({ writer: 'durability', n: requests }),
          agent,
          timeoutMs: 5000,
        });
        if (res.status === 201) {
          acknowledged.push({ id: res.json().id, at: Date.now() });
          continue;
        }
        fail(`HTTP ${res.status}`);
      } catch (err) {
        fail(`no response (${err.code || err.message})`);
      }
      // A refused write returns at once: do not spin on a Redis that is down.
      await sleep(pauseAfterFailureMs);
    }
  };
  const loops = Promise.all(Array.from({ length: concurrency }, loop));
  return {
    acknowledged,
    failures,
    async stop() {
      stopped = true;
      await loops;
      agent.destroy();
      return { requests };
    },
  };
}

/**
 * GETs `${url}/<id>` for every id: { found, missing: [id], unknown: [{ id, status }] }. 404 is a
 * lost record; anything but 200 or 404 after three tries is unknown (not counted as lost).
 */
async function readBack({ url, ids, concurrency = 8 }) {
  const agent = keepAliveAgent({ maxSockets: concurrency });
  const result = { found: 0, missing: [], unknown: [] };
  let next = 0;
  const loop = async () => {
    while (next < ids.length) {
      const id = ids[next++];
      let status = null;
      for (let attempt = 0; attempt < 3 && status !== 200 && status !== 404; attempt++) {
        try {
          status = (await request(`${url}/${id}`, { agent, timeoutMs: 5000 })).status;
        } catch (err) {
          status = err.code || err.message;
        }
      }
      if (status === 200) result.found++;
      else if (status === 404) result.missing.push(id);
      else result.unknown.push({ id, status });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  agent.destroy();
  return result;
}

/** Deletes records on purpose (the test that proves a lost write is caught). */
async function deleteRecords({ url, ids }) {
  for (const id of ids) {
    const res = await request(`${url}/${id}`, { method: 'DELETE', timeoutMs: 5000 });
    if (res.status !== 204) throw new Error(`DELETE ${url}/${id} answered ${res.status}, not 204`);
  }
}

module.exports = { startWriters, readBack, deleteRecords };
