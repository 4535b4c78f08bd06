'use strict';
// Records in Redis: one JSON string per record at `record:<id>`, single-key commands only, so it
// works unchanged on Redis Cluster. Every command is timed into Server-Timing and the Redis
// histogram; a Redis that cannot answer becomes a 503 problem, not a hung or 500 response.
const { ReplyError } = require('ioredis');
const { Problem } = require('./problem');
const { addRedisTime, now } = require('./timing');

const keyOf = (id) => `record:${id}`;

// Replies that mean "Redis is there but cannot serve now" rather than "we sent nonsense".
const UNAVAILABLE_REPLY = /^(CLUSTERDOWN|LOADING|MASTERDOWN|TRYAGAIN|READONLY|NOAUTH|WRONGPASS|BUSY)/;

function unavailable(err) {
  return new Problem(503, 'redis-unavailable', `Redis did not answer: ${err.message}`, {
    headers: { 'Retry-After': '1' },
    cause: err,
  });
}

/**
 * `waitReplicas` (REDIS_WAIT_REPLICAS): acknowledge a write only once that many replicas have it
 * (Redis WAIT, at most `waitTimeoutMs`); otherwise 503 redis-not-replicated. 0: the primary's
 * acknowledgement is enough, and a failover may lose what it had not yet replicated.
 */
function createRecordStore({ redis, metrics, waitReplicas = 0, waitTimeoutMs = 500 }) {
  /** Awaits a command started at `start` (ms), timing it into `res` and the histogram. */
  async function timed(res, command, start, reply) {
    let outcome = 'ok';
    try {
      return await reply;
    } catch (err) {
      outcome = 'error';
      if (err instanceof ReplyError && !UNAVAILABLE_REPLY.test(err.message)) throw err;
      throw unavailable(err);
    } finally {
      const ms = now() - start;
      if (res !== undefined) addRedisTime(res, ms);
      metrics.observeRedis(command, outcome, ms / 1000);
    }
  }

  /**
   * A write command on `key`, followed by WAIT when replicas must confirm it. Both go in one
   * pipeline: Redis Cluster routes a pipeline by its key, so WAIT reaches the node that took
   * the write (a lone WAIT, having no key, could go to any node).
   */
  async function write(res, command, key, ...args) {
    if (!waitReplicas) return timed(res, command, now(), redis[command](key, ...args));
    const replies = redis
      .pipeline()
      [command](key, ...args)
      .wait(waitReplicas, waitTimeoutMs)
      .exec();
    const { reply, acked } = await timed(
      res,
      command,
      now(),
      replies.then(([[err, reply], [waitErr, acked]]) => {
        if (err || waitErr) throw err || waitErr;
        return { reply, acked };
      }),
    );
    if (acked < waitReplicas) {
      throw new Problem(
        503,
        'redis-not-replicated',
        `the write reached ${acked} of ${waitReplicas} Redis replica(s) within ${waitTimeoutMs} ms (REDIS_WAIT_REPLICAS)`,
        { headers: { 'Retry-After': '1' } },
      );
    }
    return reply;
  }

  return {
    /** The stored JSON text, or null when absent. */
    get: (res, id) => timed(res, 'get', now(), redis.get(keyOf(id))),
    /** Stores a new record; false if the id exists already (SET NX). */
    create: async (res, id, json) => (await write(res, 'set', keyOf(id), json, 'NX')) === 'OK',
    /** Replaces an existing record; false if absent (SET XX: atomic, no read-then-write race). */
    replace: async (res, id, json) => (await write(res, 'set', keyOf(id), json, 'XX')) === 'OK',
    /** Deletes a record; false if absent. */
    remove: async (res, id) => (await write(res, 'del', keyOf(id))) === 1,
    /** PING, for readiness. */
    ping: () => timed(undefined, 'ping', now(), redis.ping()),
  };
}

module.exports = { createRecordStore, keyOf };
