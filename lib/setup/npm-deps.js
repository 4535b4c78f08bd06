'use strict';
// npm dependencies of one package folder, installed with `npm ci` from its lockfile. A stamp of
// the lockfile's hash makes this a no-op when nothing changed.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('../core/paths');

function npmDeps(folder, neededFor) {
  const dir = path.join(ROOT, folder);
  const lock = path.join(dir, 'package-lock.json');
  const stamp = path.join(dir, 'node_modules', '.router-lab-lock.sha256');
  const lockHash = () => crypto.createHash('sha256').update(fs.readFileSync(lock)).digest('hex');
  return {
    name: `npm dependencies (${folder === '.' ? 'root' : folder})`,
    neededFor,
    locate() {
      try {
        return fs.readFileSync(stamp, 'utf8').trim() === lockHash()
          ? { version: 'up to date', path: path.relative(ROOT, path.dirname(stamp)) || '.' }
          : null;
      } catch {
        return null;
      }
    },
    install(log) {
      log(`  $ npm ci   (in ${folder})`);
      const r = spawnSync('npm', ['ci', '--no-fund', '--no-audit', '--loglevel=error'], {
        cwd: dir,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      if (r.status !== 0) throw new Error(`npm ci in ${folder} failed: see the output above`);
      fs.writeFileSync(stamp, `${lockHash()}\n`);
    },
  };
}

module.exports = { npmDeps };
