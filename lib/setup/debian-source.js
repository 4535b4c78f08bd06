'use strict';
// Building from a Debian source package: its upstream tarball, fetched through the system's own apt
// mirrors with a private apt state (the system's lists and sources stay untouched) and checked, by
// apt against the source index or against a checksum the pin carries; then unpacked.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const os = require('node:os');
const { findOnPath } = require('../core/tools');
const { installSystemPackages } = require('./system-packages');

/** '3.0.11' from '3.0.11-1+deb13u5' (epoch and Debian revision dropped): what `haproxy -v` says. */
function upstreamVersion(debianVersion) {
  return debianVersion.replace(/^\d+:/, '').replace(/-[^-]*$/, '');
}

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
function pinnedSourcesFile(entries, pin) {
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

/** Whether `pin` can be built here: root (for its build packages) and apt with a mirror of its release. */
function canBuildHere(pin) {
  if (process.getuid?.() !== 0) return false;
  try {
    checkAptSource(pin);
    return true;
  } catch {
    return false;
  }
}

/** Debian's ccache package: its compiler names (cc, gcc) run the compiler through the cache. */
const CCACHE_DIR = '/usr/lib/ccache';

/**
 * The environment of a build step in `cwd`: with ccache installed (a build package of every C
 * build here), compilers come through it, so a fresh clone rebuilds HAProxy in seconds from the
 * user's cache (~/.cache/ccache) instead of minutes. Each build unpacks into a new temporary
 * directory: paths are hashed relative to it (BASEDIR) and the directory itself is not (NOHASHDIR,
 * which -g would otherwise bring in), or no build would ever hit.
 */
function buildEnv(cwd, env = process.env) {
  if (!fs.existsSync(CCACHE_DIR)) return env;
  return { ...env, PATH: `${CCACHE_DIR}:${env.PATH}`, CCACHE_BASEDIR: cwd, CCACHE_NOHASHDIR: '1' };
}

/** Runs one step; `what` says in the error which step failed (its own output is above). */
function run(file, args, { cwd, log, what }) {
  log(`  $ ${[file, ...args].join(' ')}`);
  const r = spawnSync(file, args, { cwd, env: buildEnv(cwd), stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${what}: see the output above`);
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

/** A private apt state for `pin`'s sources under `tmp`, its index updated: { options, uris }. */
function privateApt(pin, tmp, log) {
  const sources = checkAptSource(pin);
  const state = path.join(tmp, `apt-${pin.source}`);
  fs.mkdirSync(path.join(state, 'lists', 'partial'), { recursive: true });
  fs.mkdirSync(path.join(state, 'sources.list.d'));
  fs.writeFileSync(path.join(state, 'sources.list.d', `${pin.release}-src.sources`), `${sources}\n`);
  const options = [
    ...['-o', 'Dir::Etc::SourceList=/dev/null'],
    ...['-o', `Dir::Etc::SourceParts=${path.join(state, 'sources.list.d')}`],
    ...['-o', `Dir::State::Lists=${path.join(state, 'lists')}`],
    ...['-o', `Dir::Cache=${path.join(state, 'cache')}`],
    ...['-o', 'APT::Sandbox::User=root'],
  ];
  run('apt-get', [...options, '-qq', 'update'], {
    log,
    what: `apt-get update found no ${pin.suites.join('/')} source index on the system's mirrors`,
  });
  const uris = [...new Set([...sources.matchAll(/^URIs: (.+)$/gm)].map((m) => m[1]))];
  return { options, uris };
}

/** The Debian versions of `source` the index offers, newest first. */
function offeredVersions(apt, source) {
  const r = spawnSync('apt-cache', [...apt.options, 'showsrc', '--only-source', source], {
    encoding: 'utf8',
  });
  const versions = [...(r.stdout || '').matchAll(/^Version: (\S+)$/gm)].map((m) => m[1]);
  const order = (a, b) => (spawnSync('dpkg', ['--compare-versions', a, 'gt', b]).status === 0 ? -1 : 1);
  return [...new Set(versions)].sort(order);
}

/** The orig tarball `name` in `dir`, or null. */
function origTarball(dir, source, upstream) {
  const name = fs.readdirSync(dir).find((f) => f.startsWith(`${source}_${upstream}.orig.tar.`));
  return name ? path.join(dir, name) : null;
}

/** `apt-get source` of one version into `dir`: its tarball, or null when apt could not fetch it. */
function aptSourceTarball(apt, source, version, dir, log) {
  log(`  $ apt-get source --tar-only --download-only ${source}=${version}`);
  // --tar-only: the upstream tarball, which is what is built (Debian's packaging is not needed).
  const args = [...apt.options, 'source', '--tar-only', '--download-only', `${source}=${version}`];
  const r = spawnSync('apt-get', args, { cwd: dir, stdio: ['ignore', 'inherit', 'inherit'] });
  return r.status === 0 ? origTarball(dir, source, upstreamVersion(version)) : null;
}

/**
 * The pinned orig tarball from the mirrors' pool, checked against the pin's own SHA-256: for a
 * version the index no longer lists but the mirror still serves. Null when none serves it.
 */
function poolTarball(apt, pin, dir, log) {
  if (!pin.origSha256) return null;
  const prefix = pin.source.startsWith('lib') ? pin.source.slice(0, 4) : pin.source[0];
  const name = `${pin.source}_${upstreamVersion(pin.debianVersion)}.orig.tar.gz`;
  for (const uri of apt.uris) {
    const url = `${uri.replace(/\/$/, '')}/pool/main/${prefix}/${pin.source}/${name}`;
    log(`  $ apt-helper download-file ${url} (SHA-256 ${pin.origSha256.slice(0, 12)}…)`);
    const args = ['-o', 'APT::Sandbox::User=root', 'download-file', url, path.join(dir, name)];
    const r = spawnSync('/usr/lib/apt/apt-helper', [...args, `SHA256:${pin.origSha256}`], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    if (r.status === 0) return path.join(dir, name);
  }
  return null;
}

/**
 * Where to look for `pin`'s tarball, in order, given the versions the index `offered` (newest
 * first): the pinned version from the index when listed, from the pool by its checksum, then (a
 * pin with a branch) each other version of that branch the index offers.
 */
function fetchPlan(pin, offered) {
  const plan = [];
  if (offered.includes(pin.debianVersion)) plan.push({ from: 'index', version: pin.debianVersion });
  if (pin.origSha256) plan.push({ from: 'pool', version: pin.debianVersion });
  const inBranch = (v) => upstreamVersion(v).startsWith(`${pin.branch}.`);
  const others = pin.branch ? offered.filter((v) => v !== pin.debianVersion && inBranch(v)) : [];
  return plan.concat(others.map((version) => ({ from: 'index', version })));
}

/**
 * The upstream tarball of Debian's source package `pin` ({ release, suites, source, debianVersion,
 * and optionally branch and origSha256 }), fetched into `tmp` by fetchPlan. Another version than
 * the pinned one is said in the log. Returns { tarball, version } (the upstream version).
 */
function fetchUpstreamTarball(pin, tmp, log) {
  const apt = privateApt(pin, tmp, log);
  const dir = path.join(tmp, `src-${pin.source}`);
  fs.mkdirSync(dir);
  const offered = offeredVersions(apt, pin.source);
  for (const { from, version } of fetchPlan(pin, offered)) {
    if (version !== pin.debianVersion) {
      log(
        `  ! ${pin.source} ${pin.debianVersion} could not be fetched: trying ${version}, offered by the index`,
      );
    }
    const tarball =
      from === 'pool'
        ? poolTarball(apt, pin, dir, log)
        : aptSourceTarball(apt, pin.source, version, dir, log);
    if (tarball) return { tarball, version: upstreamVersion(version) };
  }
  const seen = offered.length ? `the index offers ${offered.join(', ')}` : 'the index lists none';
  throw new Error(
    `Debian's source package ${pin.source} ${pin.debianVersion} is not on the system's mirrors ` +
      `(${seen}${pin.branch ? `; none of branch ${pin.branch} could be fetched` : ''})`,
  );
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

function debInstalled(pkg) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg], { encoding: 'utf8' });
  return r.status === 0 && /install ok installed/.test(r.stdout);
}

/** Installs the build packages `pin` lists that are missing (a present one would be upgraded). */
function installBuildPackages(pin, log) {
  const missing = pin.buildPackages.filter((p) => !debInstalled(p));
  if (missing.length) installSystemPackages(`the ${pin.source} build dependencies`, { apt: missing }, log);
}

module.exports = {
  unpack,
  jobs,
  installBuildPackages,
  upstreamVersion,
  parseAptSources,
  pinnedSourcesFile,
  checkAptSource,
  canBuildHere,
  fetchUpstreamTarball,
  fetchPlan,
  run,
};
