'use strict';
// lab.json: what a running lab is (ports, routes, pids, certificates, placement). Written by
// lab:up once every route answers, removed by lab:down; the matrix and lab:status read it.
const fs = require('node:fs');
const path = require('node:path');
const { labDir: defaultLabDir } = require('../../core/paths');
const { writeJsonAtomic } = require('../../core/files');

const stateFile = (labDir) => path.join(labDir, 'lab.json');

/** The running lab's state, or null when there is none. Throws if lab.json is unreadable JSON. */
function readLabState(labDir = defaultLabDir()) {
  let text;
  try {
    text = fs.readFileSync(stateFile(labDir), 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') return null;
    throw err;
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new Error(`${stateFile(labDir)} is not valid JSON (${err.message}): run 'npm run lab:down'`, {
      cause: err,
    });
  }
}

function writeLabState(labDir, state) {
  const file = stateFile(labDir);
  writeJsonAtomic(file, state);
}

function removeLabState(labDir) {
  fs.rmSync(stateFile(labDir), { force: true });
}

module.exports = { readLabState, writeLabState, removeLabState, stateFile };
