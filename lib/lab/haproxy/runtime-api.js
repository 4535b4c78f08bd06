'use strict';
// The router's runtime API (HAProxy's stats socket, as the OpenShift router has one): its own
// counters are the evidence of what a cell made the router do, e.g. full TLS handshakes per
// second and the share of resumed sessions, which no client-side figure can prove.
const net = require('node:net');

/** Sends one command to the stats socket; resolves HAProxy's answer as text. */
function runtimeCommand(socketPath, command, { timeoutMs = 2000 } = {}) {
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(socketPath, () => socket.end(`${command}\n`));
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`no answer to '${command}' on ${socketPath} in ${timeoutMs} ms`)),
    );
    socket.on('data', (chunk) => (answer += chunk));
    socket.once('error', (err) =>
      reject(new Error(`the router's runtime API at ${socketPath}: ${err.message}`, { cause: err })),
    );
    socket.once('close', (hadError) => hadError || resolve(answer));
  });
}

/** `show info` as an object: numbers where HAProxy prints numbers, text otherwise. */
function parseInfo(text) {
  const info = {};
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const value = line.slice(colon + 1).trim();
    info[line.slice(0, colon).trim()] = /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return info;
}

async function showInfo(socketPath, options) {
  return parseInfo(await runtimeCommand(socketPath, 'show info', options));
}

/** `show stat` (CSV, header '# pxname,svname,…') as rows of objects, numbers where numeric. */
function parseStat(text) {
  const lines = text.split('\n').filter((line) => line.trim());
  const header = lines.shift();
  if (!header || !header.startsWith('# ')) return [];
  const fields = header.slice(2).split(',');
  return lines.map((line) =>
    Object.fromEntries(
      line.split(',').map((value, i) => [fields[i], /^-?\d+$/.test(value) ? Number(value) : value]),
    ),
  );
}

async function showStat(socketPath, options) {
  return parseStat(await runtimeCommand(socketPath, 'show stat', options));
}

module.exports = { runtimeCommand, parseInfo, showInfo, parseStat, showStat };
