'use strict';
// OpenShift's "Intermediate" TLS security profile per release, as the ingress operator hands it to
// the router: TLS 1.2 ciphers, TLS 1.3 suites and, from 4.22, key-exchange groups (from
// openshift/api config/v1/types_tlssecurityprofile.go on each release branch; 5.0's is 4.22's).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { TOOLS_DIR } = require('../../core/paths');
const { writeJsonAtomic } = require('../../core/files');

/** The releases the lab mirrors, oldest first; the newest is the default. */
const RELEASES = ['4.16', '4.17', '4.18', '4.19', '4.20', '4.21', '4.22', '5.0'];
const NEWEST_RELEASE = RELEASES[RELEASES.length - 1];

const ECDHE_CIPHERS = [
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
];
/** 4.22 dropped the finite-field DHE ciphers from Intermediate. */
const DHE_CIPHERS = ['DHE-RSA-AES128-GCM-SHA256', 'DHE-RSA-AES256-GCM-SHA384'];
const CIPHERSUITES = ['TLS_AES_128_GCM_SHA256', 'TLS_AES_256_GCM_SHA384', 'TLS_CHACHA20_POLY1305_SHA256'];
/**
 * From 4.22 the router is given its groups (ROUTER_CURVES), the post-quantum hybrid first.
 * openshift/api's newer profiles list X25519MLKEM768, X25519, secp256r1 and secp384r1: the same
 * first choices, so the same negotiated group for any client offering X25519.
 */
const GROUPS_FROM_4_22 = ['X25519MLKEM768', 'X25519', 'P-256', 'P-384', 'P-521'];

const atLeast = (release, than) => RELEASES.indexOf(release) >= RELEASES.indexOf(than);

/** { release, ciphers, ciphersuites, groups } (groups null: HAProxy's and OpenSSL's defaults). */
function intermediateProfile(release = NEWEST_RELEASE) {
  if (!RELEASES.includes(release)) {
    throw new Error(`the lab mirrors OpenShift ${RELEASES.join(', ')}, not ${release}`);
  }
  const modern = atLeast(release, '4.22');
  return {
    release,
    ciphers: [...ECDHE_CIPHERS, ...(modern ? [] : DHE_CIPHERS)].join(':'),
    ciphersuites: CIPHERSUITES.join(':'),
    groups: modern ? GROUPS_FROM_4_22 : null,
  };
}

/** Whether `haproxy` accepts `group` alone on a bind that loads `certPem` (`haproxy -c`). */
function acceptsGroup(haproxy, group, certPem) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'router-lab-groups-'));
  try {
    const cfg = path.join(dir, 'groups.cfg');
    fs.writeFileSync(
      cfg,
      `global\n  ssl-default-bind-curves ${group}\nfrontend f\n  mode tcp\n` +
        `  bind 127.0.0.1:1 ssl crt ${certPem}\n  default_backend b\nbackend b\n  mode tcp\n`,
    );
    execFileSync(haproxy, ['-c', '-q', '-f', cfg], { stdio: 'ignore', timeout: 15000 });
    return true;
  } catch {
    return false;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The groups each binary (path, size, modification time) accepted, kept in .tools/ between runs:
 * a `haproxy -c` takes about 130 ms, five groups were 0.7 s of every lab:up, and the template
 * router renders its configuration again at every reload. Refusals are asked again: one may come
 * from the certificate or a timeout rather than the group.
 */
const ACCEPTED_FILE = path.join(TOOLS_DIR, 'haproxy-groups.json');

function readAccepted() {
  try {
    return new Set(JSON.parse(fs.readFileSync(ACCEPTED_FILE, 'utf8')));
  } catch {
    return new Set();
  }
}

/** Adds `keys` to the file, written whole and renamed into place; a failure only costs time. */
function rememberAccepted(keys) {
  try {
    fs.mkdirSync(TOOLS_DIR, { recursive: true });
    writeJsonAtomic(ACCEPTED_FILE, [...new Set([...readAccepted(), ...keys])]);
  } catch {
    // Not kept: the next lab:up asks haproxy -c again.
  }
}

/**
 * Which of `groups` this HAProxy's OpenSSL accepts, each tried alone with `haproxy -c` on a bind
 * that loads `certPem` (OpenSSL 3.0 has no ML-KEM, 3.5 has). Returns { supported, missing }.
 */
function supportedGroups(haproxy, groups, certPem) {
  const { size, mtimeMs } = fs.statSync(haproxy);
  const accepted = readAccepted();
  const learned = [];
  const supported = [];
  const missing = [];
  for (const group of groups) {
    const key = JSON.stringify([path.resolve(haproxy), size, mtimeMs, group]);
    let ok = accepted.has(key);
    if (!ok && acceptsGroup(haproxy, group, certPem)) {
      learned.push(key);
      ok = true;
    }
    (ok ? supported : missing).push(group);
  }
  if (learned.length) rememberAccepted(learned);
  return { supported, missing };
}

module.exports = { RELEASES, NEWEST_RELEASE, intermediateProfile, supportedGroups };
