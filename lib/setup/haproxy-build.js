'use strict';
// The pinned router HAProxy, built into .tools/bin/haproxy from the upstream tarball of Debian's
// source package (apt fetches and checks it from the system's own sources). Without apt, root or a
// compiler the build is skipped and the lab runs the system's HAProxy (./install.js says so).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { findOnPath } = require('../core/tools');
const { TOOLS_BIN } = require('../core/paths');
const { installSystemPackages } = require('./system-packages');

/**
 * The one place the build is pinned: Debian's source package version (trixie, Debian 13, carries
 * the 3.0 LTS branch) and the make flags the OpenShift router's HAProxy needs: OpenSSL, PCRE2 for
 * its map_reg maps, the Prometheus exporter.
 */
const HAPROXY_PIN = {
  release: 'trixie',
  suites: ['trixie', 'trixie-updates', 'trixie-security'],
  source: 'haproxy',
  debianVersion: '3.0.11-1+deb13u5',
  makeFlags: ['TARGET=linux-glibc', 'USE_OPENSSL=1', 'USE_PCRE2=1', 'USE_PCRE2_JIT=1', 'USE_PROMEX=1'],
  buildPackages: ['gcc', 'make', 'libc6-dev', 'libssl-dev', 'libpcre2-dev'],
};

/** '3.0.11' from '3.0.11-1+deb13u5' (epoch and Debian revision dropped): what `haproxy -v` says. */
function upstreamVersion(debianVersion) {
  return debianVersion.replace(/^\d+:/, '').replace(/-[^-]*$/, '');
}

const PINNED_BIN = path.join(TOOLS_BIN, 'haproxy');

/** deb822 stanzas or one-line entries of the system's apt sources: [{ types, uris, suites, signedBy }]. */
function parseAptSources(text, { deb822 }) {
  if (!deb822) {
    return text
      .split('\n')
      .map((l) => l.replace(/#.*/, '').trim())
      .filter((l) => /^deb(-src)?\s/.test(l))
      .map((l) => {
        const [type, ...rest] = l.split(/\s+/);
        const words = rest.filter((w) => !w.startsWith('['));
        const signed = /signed-by=([^\s\]]+)/.exec(l);
        return { types: [type], uris: [words[0]], suites: [words[1]], signedBy: signed ? signed[1] : null };
      });
  }
  return text
    .split(/\n\s*\n/)
    .map((stanza) => {
      const fields = {};
      for (const line of stanza.split('\n')) {
        const m = /^([A-Za-z-]+):\s*(.*)$/.exec(line);
        if (m && !line.startsWith('#')) fields[m[1].toLowerCase()] = m[2].trim();
      }
      return fields;
    })
    .filter((f) => f.types && f.uris && f.suites && f.enabled !== 'no')
    .map((f) => ({
      types: f.types.split(/\s+/),
      uris: f.uris.split(/\s+/),
      suites: f.suites.split(/\s+/),
      signedBy: f['signed-by'] || null,
    }));
}

function systemAptSources(etc = '/etc/apt') {
  const entries = [];
  const read = (file, deb822) => {
    try {
      entries.push(...parseAptSources(fs.readFileSync(file, 'utf8'), { deb822 }));
    } catch {
      // a source file we cannot read adds no mirror
    }
  };
  read(path.join(etc, 'sources.list'), false);
  const dir = path.join(etc, 'sources.list.d');
  for (const name of fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []) {
    if (name.endsWith('.sources')) read(path.join(dir, name), true);
    else if (name.endsWith('.list')) read(path.join(dir, name), false);
  }
  return entries;
}

/**
 * deb-src stanzas for the pinned release on the system's own mirrors: each mirror that serves a
 * suite <codename>[-suffix] serves the pinned release's suite with the same suffix. Returns '' when
 * the system's sources have no Debian-style codename to map.
 */
function pinnedSourcesFile(entries, pin = HAPROXY_PIN) {
  const stanzas = new Map();
  for (const entry of entries.filter((e) => e.types.includes('deb') || e.types.includes('deb-src'))) {
    for (const suite of entry.suites) {
      const suffix = (/^[a-z]+(-[a-z]+)?$/.exec(suite) || [])[1] || '';
      const wanted = `${pin.release}${suffix}`;
      if (!/^[a-z]+(-[a-z]+)?$/.test(suite) || !pin.suites.includes(wanted)) continue;
      for (const uri of entry.uris) {
        const key = `${uri} ${wanted}`;
        if (stanzas.has(key)) continue;
        stanzas.set(
          key,
          ['Types: deb-src', `URIs: ${uri}`, `Suites: ${wanted}`, 'Components: main']
            .concat(entry.signedBy ? [`Signed-By: ${entry.signedBy}`] : [])
            .join('\n'),
        );
      }
    }
  }
  return [...stanzas.values()].join('\n\n');
}

/** Runs one step; `what` says in the error which step failed (its own output is above). */
function run(file, args, { cwd, log, what }) {
  log(`  $ ${[file, ...args].join(' ')}`);
  const r = spawnSync(file, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${what}: see the output above`);
}

function debInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && /install ok installed/.test(r.stdout);
}

/** The upstream version `haproxy -v` prints, or null. */
function haproxyVersion(file) {
  const r = spawnSync(file, ['-v'], { encoding: 'utf8', timeout: 15000 });
  return ((r.stdout || '').match(/version (\d+\.\d+\.\d+)/) || [])[1] || null;
}

/** Throws unless apt can fetch `pin`'s source from the system's mirrors; returns its deb-src stanzas. */
function checkAptSource(pin) {
  if (!findOnPath('apt-get')) {
    throw new Error('it is built from a Debian source package, which needs apt-get (this system has none)');
  }
  const sources = pinnedSourcesFile(systemAptSources(), pin);
  if (!sources) {
    throw new Error(
      `the system's apt sources name no Debian mirror for ${pin.release} (${pin.suites.join(', ')})`,
    );
  }
  return sources;
}

/**
 * The upstream tarball of Debian's source package `pin` ({ release, suites, source, debianVersion }),
 * fetched and checked by apt from the system's own mirrors into `tmp`, with a private apt state:
 * the system's own lists and sources stay untouched. Returns its path.
 */
function fetchUpstreamTarball(pin, tmp, log) {
  const sources = checkAptSource(pin);
  const state = path.join(tmp, `apt-${pin.source}`);
  fs.mkdirSync(path.join(state, 'lists', 'partial'), { recursive: true });
  fs.mkdirSync(path.join(state, 'sources.list.d'));
  fs.writeFileSync(path.join(state, 'sources.list.d', `${pin.release}-src.sources`), `${sources}\n`);
  const apt = [
    ...['-o', 'Dir::Etc::SourceList=/dev/null'],
    ...['-o', `Dir::Etc::SourceParts=${path.join(state, 'sources.list.d')}`],
    ...['-o', `Dir::State::Lists=${path.join(state, 'lists')}`],
    ...['-o', `Dir::Cache=${path.join(state, 'cache')}`],
    ...['-o', 'APT::Sandbox::User=root'],
  ];
  run('apt-get', [...apt, '-qq', 'update'], {
    log,
    what: `apt-get update found no ${pin.suites.join('/')} source index on the system's mirrors`,
  });
  const src = path.join(state, 'src');
  fs.mkdirSync(src);
  // --tar-only: the upstream tarball, which is what is built (Debian's packaging is not needed).
  run('apt-get', [...apt, 'source', '--tar-only', '--download-only', `${pin.source}=${pin.debianVersion}`], {
    cwd: src,
    log,
    what:
      `Debian's source package ${pin.source} ${pin.debianVersion} is not on the system's mirrors ` +
      '(a newer revision may have replaced it: update its pin)',
  });
  const upstream = upstreamVersion(pin.debianVersion);
  const tarball = fs.readdirSync(src).find((f) => f.startsWith(`${pin.source}_${upstream}.orig.tar.`));
  if (!tarball)
    throw new Error(`apt fetched no ${pin.source}_${upstream}.orig.tar.* for ${pin.debianVersion}`);
  return path.join(src, tarball);
}

/** Unpacks `tarball` into a new directory `dir` (its top folder stripped); returns `dir`. */
function unpack(tarball, dir, log) {
  fs.mkdirSync(dir);
  run('tar', ['-xf', tarball, '-C', dir, '--strip-components=1'], {
    log,
    what: `unpacking ${path.basename(tarball)} failed`,
  });
  return dir;
}

const jobs = () =>
  String(Math.max(1, os.availableParallelism ? os.availableParallelism() : os.cpus().length));

/** Installs the build packages `pin` lists that are missing (a present one would be upgraded). */
function installBuildPackages(pin, log) {
  const missing = pin.buildPackages.filter((p) => !debInstalled(p));
  if (missing.length) installSystemPackages(`the ${pin.source} build dependencies`, { apt: missing }, log);
}

/**
 * Builds HAProxy from `pin` with `extraFlags` (another OpenSSL, say) and installs it as `target`,
 * checking the version it reports. Throws saying why it could not.
 */
function buildHaproxy(log, { pin = HAPROXY_PIN, extraFlags = [], target = PINNED_BIN } = {}) {
  checkAptSource(pin);
  installBuildPackages(pin, log);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-haproxy-'));
  try {
    const build = unpack(fetchUpstreamTarball(pin, tmp, log), path.join(tmp, 'build'), log);
    const upstream = upstreamVersion(pin.debianVersion);
    log(`  building HAProxy ${upstream} (about a minute on 2 cores)`);
    run('make', [`-j${jobs()}`, ...pin.makeFlags, ...extraFlags], {
      cwd: build,
      log,
      what: `building HAProxy ${upstream} failed`,
    });
    const built = path.join(build, 'haproxy');
    const version = haproxyVersion(built);
    if (version !== upstream)
      throw new Error(`the build reports version ${version}, not the pinned ${upstream}`);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(built, `${target}.new`);
    fs.chmodSync(`${target}.new`, 0o755);
    fs.renameSync(`${target}.new`, target);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Builds the pinned HAProxy into .tools/bin/haproxy. Throws an Error saying why it could not
 * (no apt, no root, the release not on the system's mirrors, a failed build); ./install.js then
 * falls back to the system's HAProxy.
 */
function buildPinnedHaproxy(log, pin = HAPROXY_PIN) {
  buildHaproxy(log, { pin });
}

module.exports = {
  HAPROXY_PIN,
  PINNED_BIN,
  upstreamVersion,
  parseAptSources,
  pinnedSourcesFile,
  haproxyVersion,
  buildPinnedHaproxy,
  buildHaproxy,
  fetchUpstreamTarball,
  unpack,
  installBuildPackages,
  run,
  jobs,
};
