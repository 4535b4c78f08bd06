'use strict';
// The unit tier's guard: a unit test starts no process and opens no listening socket, so that
// the tier stays fast and needs no tool. A test that does belongs in `<name>.test.js`.
const childProcess = require('node:child_process');
const net = require('node:net');

function refuse(what) {
  return () => {
    throw new Error(`a unit test may not ${what}: name the file <name>.test.js (the full tier)`);
  };
}

for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = refuse(`start a process (child_process.${name})`);
}
net.Server.prototype.listen = refuse('listen on a socket');
