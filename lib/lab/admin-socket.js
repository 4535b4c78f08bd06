'use strict';
// HAProxy's admin socket (the `stats socket ... level admin` in the router configuration): one
// command, its whole answer. The lab uses it to tell which HAProxy process serves after a reload.
const net = require('node:net');

/** Sends `command` to the unix socket at `socketPath`; resolves with HAProxy's answer text. */
function adminCommand(socketPath, command, { timeoutMs = 2000 } = {}) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const chunks = [];
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(
        new Error(`HAProxy admin socket ${socketPath}: no answer to '${command}' in ${timeoutMs} ms`),
      ),
    );
    socket.on('connect', () => socket.end(`${command}\n`));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** `show info` as an object ({ Pid: '123', Uptime_sec: '4', ... }). */
async function showInfo(socketPath, options) {
  const text = await adminCommand(socketPath, 'show info', options);
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => /^([^:]+):\s*(.*)$/.exec(line))
      .filter(Boolean)
      .map((m) => [m[1], m[2]]),
  );
}

/** `show stat` as rows ({ pxname, svname, scur, smax, slim, ... }), as the stats page's CSV. */
async function showStat(socketPath, options) {
  const [header, ...lines] = (await adminCommand(socketPath, 'show stat', options)).trim().split('\n');
  const names = header.replace(/^# /, '').split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((v, i) => [names[i], v])));
}

module.exports = { adminCommand, showInfo, showStat };
