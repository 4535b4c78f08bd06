'use strict';
// The unit tier's guard: a unit test starts no process and opens no listening socket, so that
// the tier stays fast and needs no tool. Undone after each file: the tiers may share a worker.
const childProcess = require('node:child_process');
const net = require('node:net');

const SPAWNERS = ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'];

function refuse(what) {
  return () => {
    throw new Error(`a unit test may not ${what}: name the file <name>.test.js (the full tier)`);
  };
}

const originals = { listen: net.Server.prototype.listen };
for (const name of SPAWNERS) {
  originals[name] = childProcess[name];
  childProcess[name] = refuse(`start a process (child_process.${name})`);
}
net.Server.prototype.listen = refuse('listen on a socket');

afterAll(() => {
  for (const name of SPAWNERS) childProcess[name] = originals[name];
  net.Server.prototype.listen = originals.listen;
});
