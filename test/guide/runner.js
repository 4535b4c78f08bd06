'use strict';
// Runs a page's exercise blocks as a student would, in their quick form, in bash from the repository
// against one real lab (`.lab/`, `results/` and the ports moved to the test's). `npm run lab:up` and
// `lab:down` are the lab's own up() and down(): a lab is kept for the next page while its knobs match.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ROOT, TOOLS_BIN } = require('../../lib/core/paths');
const lab = require('../../lib/lab/index');
const { isDeepStrictEqual } = require('node:util');
const {
  SHARED_KNOBS,
  pooledLabDir,
  sharedRunDir,
  rememberEnv,
  useExclusively,
} = require('../support/lab-pool');
const {
  blockCommands,
  simpleCommands,
  expandFor,
  npmRun,
  quickForm,
  relocate,
} = require('../../lib/guide/exercise');

const PORT_KNOBS = [
  'LAB_HTTP_PORT',
  'LAB_HTTPS_PORT',
  'LAB_STATS_PORT',
  'LAB_SERVICE_BASE_PORT',
  'LAB_REDIS_PORT',
];

/** process.env without any LAB_* of the shell that runs the tests. */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LAB_')));

/** The lab knobs a command sets (LAB_* assignments before `npm run lab:up`), ports excluded. */
const knobsOf = (env) => Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith('LAB_')));

/**
 * The run's shared lab for `knobs` (test/support/lab-pool.js) where a test file uses the same
 * (SHARED_KNOBS: the default lab, test/bin/compare.test.js's too; the lab with pods,
 * test/node/pods-lab.test.js's, which takes it down at its end). Other knobs: ownDir.
 */
const sharedDir = (knobs) =>
  Object.values(SHARED_KNOBS).some((shared) => isDeepStrictEqual(shared, knobs)) ? pooledLabDir(knobs) : null;

/**
 * The env a page's command runs with: the shell's without its LAB_*, every port free unless set,
 * and `resultsDir` where a command that names no --out writes (`npm run compare`'s default).
 */
const commandEnv = (labDir, resultsDir, knobs = {}) => ({
  ...cleanEnv(),
  PATH: `${TOOLS_BIN}:${process.env.PATH}`,
  LAB_DIR: labDir,
  ROUTER_LAB_RESULTS: resultsDir,
  ...Object.fromEntries(PORT_KNOBS.map((k) => [k, '0'])),
  ...knobs,
});

class ExerciseLab {
  constructor() {
    this.ownDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-lab-'));
    // The current lab's LAB_DIR: the shared default lab's, or ownDir.
    this.labDir = this.ownDir;
    this.resultsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'guide-results-'));
    this.knobs = null;
    this.state = null;
    this.log = [];
    // release() of the shared lab while this page uses it (lab-pool's useExclusively), or null.
    this.release = null;
  }

  get shared() {
    return this.labDir !== this.ownDir;
  }

  env(knobs = this.knobs || {}) {
    const ports = this.state
      ? {
          LAB_HTTP_PORT: String(this.state.router.httpPort),
          LAB_HTTPS_PORT: String(this.state.router.httpsPort),
          // The Gateway's lab has no stats port: Envoy's admin is its own.
          ...(this.state.router.statsPort !== undefined && {
            LAB_STATS_PORT: String(this.state.router.statsPort),
          }),
        }
      : {};
    return commandEnv(this.labDir, this.resultsDir, { ...knobs, ...ports });
  }

  /** A run of runOwnLabsOnce as this page's: its results where the page's lesson reads them. */
  adopt({ text, ran, code, stdout, stderr, ms, resultsDir }) {
    fs.cpSync(resultsDir, this.resultsDir, { recursive: true });
    return { text, ran, code, stdout, stderr, ms };
  }

  /**
   * A lab with exactly these knobs: the running one if it has them, else a fresh one. A shared lab
   * is this page's alone until pageDone(); the next page takes it again, as it finds it.
   */
  async ensure(knobs) {
    const same = this.state && JSON.stringify(this.knobs) === JSON.stringify(knobs);
    if (same && (this.release || !this.shared)) return this.state;
    if (same) this.state = null;
    else await this.stop();
    this.knobs = knobs;
    this.labDir = sharedDir(knobs) || this.ownDir;
    if (this.shared) this.release = await useExclusively(this.labDir);
    rememberEnv(this.env(knobs));
    const log = (line) => this.log.push(line);
    try {
      this.state = await lab.up({ env: this.env(knobs), log });
    } catch (err) {
      throw new Error(`lab:up with ${JSON.stringify(knobs)} failed: ${err.message}\n${this.log.join('\n')}`, {
        cause: err,
      });
    }
    return this.state;
  }

  /** The lab down, the shared one too: kept, it would run beside the next page's measurements. */
  async stop() {
    try {
      if (!this.state) return;
      this.state = null;
      await lab.down({ env: this.env(), log: () => {} });
    } finally {
      await this.pageDone();
    }
  }

  /** The end of a page: a shared lab is another file's to use until the next page takes it. */
  async pageDone() {
    const release = this.release;
    this.release = null;
    await release?.();
  }

  /** The end of the pages: a shared lab is left up for a file that shares it, or for globalTeardown. */
  async end() {
    try {
      if (this.shared) await this.pageDone();
      else await this.stop();
    } finally {
      fs.rmSync(this.ownDir, { recursive: true, force: true });
      fs.rmSync(this.resultsDir, { recursive: true, force: true });
    }
  }

  /** results.json of a run the page wrote to results/<name>. */
  results(name) {
    return JSON.parse(fs.readFileSync(path.join(this.resultsDir, name, 'results.json'), 'utf8'));
  }

  /** The text a page's command becomes here (quick form, relocated). */
  localize(text, attrs) {
    const router = this.state?.router;
    return relocate(quickForm(text, attrs), {
      labDir: this.labDir,
      resultsDir: this.resultsDir,
      ports: router ? { 9080: router.httpPort, 9443: router.httpsPort, 1936: router.statsPort } : {},
    });
  }
}

/** Runs one command line in bash; resolves { code, stdout, stderr, ms }. Killed after timeoutMs. */
function bash(text, env, timeoutMs) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('bash', ['-c', text], { cwd: ROOT, env, detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    const signal = (name) => {
      try {
        process.kill(-child.pid, name);
      } catch {
        // already gone
      }
    };
    // SIGTERM first: a command that started a lab takes it down on it (route-scale, npm run lab).
    let kill = null;
    const timer = setTimeout(() => {
      stderr += `\n(stopped after ${timeoutMs} ms)`;
      signal('SIGTERM');
      kill = setTimeout(() => signal('SIGKILL'), 60000);
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      clearTimeout(kill);
      resolve({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** The one lab command a line is, if it is one: { script, knobs }. */
function labCommand(text) {
  const simple = simpleCommands(text);
  const npm = simple.map((c) => ({ ...c, npm: npmRun(c.argv) }));
  const lifecycle = npm.filter((c) => c.npm && ['lab:up', 'lab:down'].includes(c.npm.script));
  if (!lifecycle.length) return null;
  if (simple.length !== 1) throw new Error(`lab:up and lab:down must be commands of their own: ${text}`);
  return { script: lifecycle[0].npm.script, knobs: knobsOf(lifecycle[0].env) };
}

/** A command against this runner's lab. */
async function runHere(text, attrs, exerciseLab, timeoutMs) {
  const ran = exerciseLab.localize(text, attrs);
  return { text, ran, ...(await bash(ran, exerciseLab.env(), timeoutMs)) };
}

/** How much longer than a page's other commands one that starts its own labs may run. */
const OWN_LABS_FACTOR = 3.75;

/**
 * A command that starts its own labs (a `lab=none` block: route-scale), run with none of the
 * runner's up, once per Jest run, in a folder of the run's pool: test/route-scale/route-scale.test.js
 * asserts on the same run. Resolves { text, ran, code, stdout, stderr, ms, labDir, resultsDir }.
 */
async function runOwnLabsOnce(text, attrs, timeoutMs = OWN_LABS_FACTOR * 240000) {
  const dir =
    sharedRunDir({ command: text, quick: attrs.quick || '' }) ||
    fs.mkdtempSync(path.join(os.tmpdir(), 'guide-own-labs-'));
  // A file in another worker running the same command: its run, once it is done.
  const release = await useExclusively(dir);
  try {
    const record = path.join(dir, 'command.json');
    if (fs.existsSync(record)) return JSON.parse(fs.readFileSync(record, 'utf8'));
    const resultsDir = path.join(dir, 'results');
    fs.mkdirSync(resultsDir, { recursive: true });
    const ran = relocate(quickForm(text, attrs), { labDir: dir, resultsDir });
    const env = commandEnv(dir, resultsDir);
    // Whatever it leaves running is taken down at the end of the run (lab-pool's globalTeardown).
    rememberEnv(env);
    const done = { text, ran, ...(await bash(ran, env, timeoutMs)), labDir: dir, resultsDir };
    fs.writeFileSync(record, JSON.stringify(done));
    return done;
  } finally {
    await release();
  }
}

/**
 * Runs a page's runnable blocks in order; resolves the commands as run: { text, ran, code, stdout,
 * stderr, ms }. The page's first command decides its lab: its own lab:up, else the default lab.
 */
async function runPage(blocks, exerciseLab, { timeoutMs = 240000 } = {}) {
  const done = [];
  let background = [];
  let first = true;
  for (const block of blocks) {
    // A command that starts its own labs (route-scale) runs with none up, in a directory of its own.
    const ownLabs = block.attrs.lab === 'none';
    if (ownLabs) {
      await exerciseLab.stop();
      first = false;
    }
    // A loop around lab:up (one lab per thread count, say) runs as its commands, one by one.
    const commands = blockCommands(block.text).flatMap((c) =>
      /npm run lab:(up|down)\b/.test(c.text) && expandFor(c.text)
        ? expandFor(c.text).map((text) => ({ text, background: false }))
        : [c],
    );
    for (const { text, background: inBackground } of commands) {
      const lifecycle = labCommand(text);
      if (first && !(lifecycle && lifecycle.script === 'lab:up')) await exerciseLab.ensure({});
      first = false;
      if (lifecycle) {
        // lab:down is kept for later: the next lab:up with the same knobs uses the same lab.
        if (lifecycle.script === 'lab:up') await exerciseLab.ensure(lifecycle.knobs);
        done.push({ text, ran: `(lab ${lifecycle.script})`, code: 0, stdout: '', stderr: '', ms: 0 });
        continue;
      }
      if (text === 'wait') {
        done.push(...(await Promise.all(background)));
        background = [];
        continue;
      }
      // A command that starts its own labs runs several: it has longer, and runs once per Jest run.
      const running = ownLabs
        ? runOwnLabsOnce(text, block.attrs, OWN_LABS_FACTOR * timeoutMs).then((r) => exerciseLab.adopt(r))
        : runHere(text, block.attrs, exerciseLab, timeoutMs);
      if (inBackground) background.push(running);
      else done.push(await running);
    }
  }
  done.push(...(await Promise.all(background)));
  await exerciseLab.pageDone();
  return done;
}

module.exports = { ExerciseLab, runPage, runOwnLabsOnce, labCommand };
