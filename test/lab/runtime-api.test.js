'use strict';
// The router's runtime API against a real HAProxy: its own TLS counters tell full handshakes from
// resumed ones, and prove that wrk driving a close cell resumes its TLS sessions; its stream
// counters tell HTTP/1.1 requests from HTTP/2 ones.
const http2 = require('node:http2');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const tls = require('node:tls');
const { createCA, createServerCert } = require('../../lib/core/certs');
const { requireTool } = require('../../lib/core/tools');
const { freePort, waitForPort } = require('../../lib/core/ports');
const { startChild } = require('../../lib/core/processes');
const {
  parseInfo,
  showInfo,
  parseStat,
  showStat,
  runtimeCommand,
} = require('../../lib/lab/haproxy/runtime-api');
const { startRouterCounters } = require('../../lib/load/router-counters');
const { reading, haproxyCounters } = require('../../lib/lab/haproxy/counters');
const { streamsBetween, streamShare } = require('../../lib/results-model/streams');
const { runWrkCell } = require('../../lib/load/wrk');

const PAGE = '0123456789abcdef'; // the 16-byte page HAProxy answers with

let dir;
let haproxy;
let port;
let servicePort;
let socketPath;
let ca;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-runtime-'));
  ca = createCA(dir, 'ca');
  const cert = createServerCert(dir, 'router', { ca, dnsNames: ['runtime.test'] });
  [port, servicePort] = [await freePort(), await freePort()];
  socketPath = path.join(dir, 'haproxy.sock');
  const config = path.join(dir, 'haproxy.cfg');
  fs.writeFileSync(
    config,
    [
      'global',
      `  stats socket ${socketPath} mode 600 level admin`,
      'defaults',
      '  mode http',
      '  timeout connect 5s',
      '  timeout client 5s',
      '  timeout server 5s',
      // The router's names (router-counters reads fe_sni and be_*), the service a frontend of its own.
      'frontend fe_sni',
      `  bind 127.0.0.1:${port} ssl crt ${cert.pem} alpn h2,http/1.1`,
      '  default_backend be_edge_http:test',
      'backend be_edge_http:test',
      `  server service 127.0.0.1:${servicePort}`,
      'frontend service',
      `  bind 127.0.0.1:${servicePort}`,
      `  http-request return status 200 content-type text/plain string ${PAGE}`,
      '',
    ].join('\n'),
  );
  haproxy = startChild(requireTool('haproxy'), ['-f', config]);
  await waitForPort(port, { what: 'haproxy' });
});

afterAll(async () => {
  if (haproxy) await haproxy.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** One TLS connection: resolves the session to resume next time, and whether this one resumed. */
function connect(session) {
  return new Promise((resolve, reject) => {
    let ticket = null;
    const socket = tls.connect({
      port,
      host: '127.0.0.1',
      servername: 'runtime.test',
      ca: fs.readFileSync(ca.cert),
      session,
    });
    socket.on('session', (s) => (ticket = s));
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      socket.write('GET / HTTP/1.1\r\nHost: runtime.test\r\nConnection: close\r\n\r\n');
    });
    socket.on('data', () => {});
    socket.once('end', () => resolve({ ticket, reused: socket.isSessionReused() }));
  });
}

test('show info is parsed into numbers and text', () => {
  expect(parseInfo('Name: HAProxy\nNbthread: 4\nSslFrontendSessionReuse_pct: 100\n')).toEqual({
    Name: 'HAProxy',
    Nbthread: 4,
    SslFrontendSessionReuse_pct: 100,
  });
});

test('full handshakes raise the key rate; resumed ones raise the reuse share', async () => {
  const first = await connect();
  expect(first.reused).toBe(false);
  let resumed = 0;
  for (let i = 0; i < 20; i++) if ((await connect(first.ticket)).reused) resumed++;
  expect(resumed).toBe(20);
  const info = await showInfo(socketPath);
  expect(info.CumSslConns).toBeGreaterThanOrEqual(21);
  expect(info.SslFrontendSessionReuse_pct).toBeGreaterThanOrEqual(90);
  for (let i = 0; i < 20; i++) await connect();
  const full = await showInfo(socketPath);
  expect(full.SslFrontendKeyRate).toBeGreaterThan(0);
  expect(full.SslFrontendSessionReuse_pct).toBeLessThan(info.SslFrontendSessionReuse_pct);
});

test('show stat is parsed into one object per proxy and server', async () => {
  expect(parseStat('# pxname,svname,qcur\nbe,BACKEND,3\nbe,s1,\n')).toEqual([
    { pxname: 'be', svname: 'BACKEND', qcur: 3 },
    { pxname: 'be', svname: 's1', qcur: '' },
  ]);
  const rows = await showStat(socketPath);
  expect(rows.find((r) => r.pxname === 'fe_sni' && r.svname === 'FRONTEND')).toMatchObject({
    scur: expect.any(Number),
  });
});

test('wrk driving a close cell resumes every TLS session after the first, as the router counts them', async () => {
  const out = path.join(dir, 'wrk-cell.json');
  const cell = {
    name: 'edge:16:close:resumed',
    termination: 'edge',
    pageSize: PAGE.length,
    connection: 'close',
    tlsSession: 'resumed',
  };
  const sample = await runWrkCell({
    wrk: requireTool('wrk'),
    cell,
    url: `https://127.0.0.1:${port}/`,
    host: 'runtime.test',
    connections: 4,
    threads: 1,
    durationSeconds: 2,
    summaryPath: out,
    target: 'lab',
    counters: { start: () => startRouterCounters(haproxyCounters(socketPath), { intervalMs: 250 }) },
  });
  const { metrics, meta } = sample.summary;
  expect(meta).toMatchObject({ generator: 'wrk', cell: cell.name, tlsSession: 'resumed', vus: 4 });
  expect(metrics.http_reqs.values.count).toBeGreaterThan(50);
  // Every answer is a 200 of the page's size: no error counters.
  expect(Object.keys(metrics).filter((name) => name.startsWith('errors_'))).toEqual([]);
  expect(metrics.request_total.values['p(99)']).toBeGreaterThanOrEqual(metrics.request_total.values['p(50)']);
  // The file holds the sample in the matrix's format, like k6's summary.
  expect(JSON.parse(fs.readFileSync(out, 'utf8')).meta.cell).toBe(cell.name);
  expect(sample.counters.readings).toBeGreaterThan(2);
  expect(sample.counters.reusePct).toBeGreaterThanOrEqual(90);
  expect(sample.counters.tlsSessionsPerSec).toBeGreaterThan(0);
  expect(sample.cpu.cpuSeconds.wrk).toBeGreaterThan(0);
});

/** `count` GETs over one HTTP/2 connection (ALPN h2). */
async function h2Requests(count) {
  const session = http2.connect(`https://127.0.0.1:${port}`, {
    servername: 'runtime.test',
    ca: fs.readFileSync(ca.cert),
  });
  try {
    for (let i = 0; i < count; i++) {
      await new Promise((resolve, reject) => {
        const req = session.request({ ':path': '/', ':authority': 'runtime.test' });
        req
          .on('data', () => {})
          .once('end', resolve)
          .once('error', reject);
        req.end();
      });
    }
  } finally {
    session.close();
  }
}

test('the router counts requests by HTTP version as received, and the streams it opened to the service', async () => {
  const totals = async () => reading(await showInfo(socketPath), await showStat(socketPath)).streamTotals;
  const before = await totals();
  for (let i = 0; i < 3; i++) await connect();
  await h2Requests(5);
  const counted = streamsBetween(before, await totals());
  // HTTP/1.1 to the service either way: the server line speaks h1.
  expect(counted).toEqual({ received: { h1: 3, h2: 5 }, sent: { h1: 8, h2: 0 } });
  expect(streamShare(counted, 'received', 'h2')).toBeCloseTo(5 / 8);
});

test('a socket that is not there is named in the error', async () => {
  await expect(runtimeCommand(path.join(dir, 'nope.sock'), 'show info')).rejects.toThrow(/nope\.sock/);
});
