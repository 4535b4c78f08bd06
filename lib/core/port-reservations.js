'use strict';
// Which ports freePort has handed out lately, across processes (Jest workers, labs): one file per
// port, created exclusively, so two callers never get one port before its listener starts.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// Long enough for a lab to start its last listener, a minute or more after it picked the ports.
const RESERVATION_MS = 10 * 60 * 1000;
const RESERVATIONS = path.join(os.tmpdir(), 'router-lab-ports');

const fileOf = (port) => path.join(RESERVATIONS, String(port));

/** Removes a reservation old enough to take over (used long ago, or its process died); true if gone. */
function expire(file, now = Date.now()) {
  try {
    if (now - fs.statSync(file).mtimeMs < RESERVATION_MS) return false;
    fs.rmSync(file, { force: true });
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
  }
  return true;
}

let swept = false;
/** Once per process, forgets the expired reservations, so the folder holds only recent ones. */
function sweep() {
  swept = true;
  fs.mkdirSync(RESERVATIONS, { recursive: true });
  for (const name of fs.readdirSync(RESERVATIONS)) expire(path.join(RESERVATIONS, name));
}

/** Reserves `port` for this process for RESERVATION_MS; false while someone else holds it. */
function claim(port) {
  if (!swept) sweep();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(fileOf(port), `${process.pid}\n`, { flag: 'wx' });
      return true;
    } catch (err) {
      if (err.code === 'ENOENT')
        fs.mkdirSync(RESERVATIONS, { recursive: true }); // the OS cleaned /tmp
      else if (err.code !== 'EEXIST') throw err;
      else if (!expire(fileOf(port))) return false;
    }
  }
  return false;
}

/** Gives `port` back before its time (it was claimed but will not be used). */
function release(port) {
  fs.rmSync(fileOf(port), { force: true });
}

module.exports = { claim, release, RESERVATIONS, RESERVATION_MS };
