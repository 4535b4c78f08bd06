'use strict';
// Records CRUD. Input is checked completely before Redis is touched: a bad id, body or content
// type never reaches Redis. Stored records are returned as the exact JSON text Redis holds, so
// a read costs no parse and no stringify.
const crypto = require('node:crypto');
const express = require('express');
const { Problem } = require('../problem');
const { methodNotAllowed } = require('./method-not-allowed');

// The server makes version-4 ids (crypto.randomUUID) but takes any RFC 9562 UUID in lower case
// (versions 1 to 8, the RFC's variant), so a well-formed id it never made is absent (404), not bad.
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function checkId(id) {
  if (!ID_PATTERN.test(id)) {
    const shown = id.length > 64 ? `${id.slice(0, 64)}…` : id;
    throw new Problem(
      400,
      'invalid-id',
      `record ids are lower-case RFC 9562 UUIDs (versions 1 to 8), got ${JSON.stringify(shown)}`,
    );
  }
  return id;
}

/** The parsed JSON object body, or a 4xx problem saying why there is none. */
function objectBody(req) {
  if (req.body === undefined) {
    const type = req.headers['content-type'];
    throw new Problem(
      415,
      'unsupported-media-type',
      type === undefined
        ? 'the request has no Content-Type; send a JSON object as application/json'
        : `Content-Type must be application/json, got ${JSON.stringify(type)}`,
    );
  }
  const body = req.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    const kind = body === null ? 'null' : Array.isArray(body) ? 'an array' : `a ${typeof body}`;
    throw new Problem(400, 'not-an-object', `the body must be a JSON object, got ${kind}`);
  }
  return body;
}

function refuseEmpty(_req, _res, body) {
  if (body.length === 0) {
    throw Object.assign(new Error('the body is empty; send a JSON object'), { type: 'entity.empty' });
  }
}

function sendJson(res, status, json) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.end(json);
}

/** Registers /api/records and /api/records/:id on `app`. */
function registerRecords(app, { store, maxBodyBytes }) {
  // Only application/json is parsed. Not strict: any JSON parses, and objectBody() then says
  // exactly what the top-level value was instead of a parser message about its first byte.
  // An empty body would parse as {}: refuse it instead of storing an empty record.
  const json = express.json({
    limit: maxBodyBytes,
    strict: false,
    type: 'application/json',
    verify: refuseEmpty,
  });

  // By id first: GET /api/records/:id is the benchmark's hot route (one layer fewer to match).
  app
    .route('/api/records/:id')
    .get(async (req, res) => {
      const id = checkId(req.params.id);
      const text = await store.get(res, id);
      if (text === null) throw new Problem(404, 'record-not-found', `no record has id ${id}`);
      sendJson(res, 200, text);
    })
    .put(json, async (req, res) => {
      const id = checkId(req.params.id);
      const body = objectBody(req);
      if (Object.hasOwn(body, 'id') && body.id !== id) {
        throw new Problem(
          400,
          'bad-request',
          `the body's id ${JSON.stringify(body.id)} differs from the id in the path (${id})`,
        );
      }
      const text = JSON.stringify({ id, ...body });
      if (!(await store.replace(res, id, text))) {
        throw new Problem(404, 'record-not-found', `no record has id ${id}`);
      }
      sendJson(res, 200, text);
    })
    .delete(async (req, res) => {
      const id = checkId(req.params.id);
      if (!(await store.remove(res, id)))
        throw new Problem(404, 'record-not-found', `no record has id ${id}`);
      res.statusCode = 204;
      res.end();
    })
    .all(methodNotAllowed(['GET', 'PUT', 'DELETE']));

  app
    .route('/api/records')
    .post(json, async (req, res) => {
      const body = objectBody(req);
      if (Object.hasOwn(body, 'id')) {
        throw new Problem(400, 'bad-request', 'the id is assigned by the server: leave "id" out of the body');
      }
      const id = crypto.randomUUID();
      const text = JSON.stringify({ id, ...body });
      if (!(await store.create(res, id, text))) {
        throw new Problem(500, 'internal', `generated id ${id} already exists`);
      }
      res.setHeader('Location', `/api/records/${id}`);
      sendJson(res, 201, text);
    })
    .all(methodNotAllowed(['POST']));
}

module.exports = { registerRecords, ID_PATTERN };
