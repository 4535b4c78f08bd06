'use strict';
// npm run setup's work: for each tool a level needs, find it, install it when missing (unless
// only checking), and say what was found, what stands in for it, or what is wrong.
const { findTool } = require('../core/tools');
const { TOOLS } = require('./registry');

/** The levels, each including the ones before: a tool's neededFor is one of them. */
const LEVELS = ['service', 'lab', 'test', 'openshift'];
/** What setup builds on request only (--with): a tool's `extra`. */
const EXTRAS = [...new Set(TOOLS.filter((t) => t.extra).map((t) => t.extra))];

function describe(found) {
  return `${found.version.padEnd(16)} ${found.path}`;
}

/** A tool with a fallback (the pinned HAProxy: the system's) is no problem when that is there. */
function useFallback(tool, why, log) {
  const other = tool.fallback && tool.fallback();
  if (!other) return false;
  log(`  ! ${tool.name.padEnd(32)} ${why}`);
  log(`    ${''.padEnd(32)} the lab uses ${describe(other)} instead`);
  return true;
}

/** One tool: returns the problem with it (a line), or null when it is there or stood in for. */
async function ensureTool(tool, { check, log }) {
  let found = tool.locate();
  const usable = found && !found.tooOld;
  if (!usable && !check) {
    log(`  … ${tool.name}: ${found ? `${found.version} is older than ${found.min}` : 'missing'}, installing`);
    try {
      await tool.install(log);
      found = tool.locate();
    } catch (err) {
      return useFallback(tool, `not built: ${err.message}`, log) ? null : `${tool.name}: ${err.message}`;
    }
  }
  if (!usable && check && useFallback(tool, 'not built', log)) return null;
  if (found && !found.tooOld) {
    log(`  ✓ ${tool.name.padEnd(32)} ${describe(found)}`);
    return null;
  }
  const why = found ? `${found.version} at ${found.path} is older than ${found.min}` : 'not installed';
  return `${tool.name}: ${why}${tool.optional ? ` (${tool.optional})` : ''}`;
}

/**
 * Every tool `level` needs, and each of `extras` (EXTRAS), in the registry's order; returns the
 * problems (lines). `signal` stops it between tools: installs block, so the event loop gets a turn
 * to see a Ctrl-C first.
 */
async function setup({ level, extras, check = false, log = (line) => console.log(line), signal }) {
  // A tool is wanted by its level (neededFor; `onlyWhere` it can be had) or by name (--with its extra).
  const byLevel = (t) =>
    t.neededFor !== undefined &&
    LEVELS.indexOf(t.neededFor) <= LEVELS.indexOf(level) &&
    (!t.onlyWhere || t.onlyWhere());
  const wanted = TOOLS.filter((t) => byLevel(t) || (extras || []).includes(t.extra));
  const problems = [];
  log(`setup (for ${level}${check ? ', check only' : ''}):`);
  for (const tool of wanted) {
    await new Promise(setImmediate);
    signal?.throwIfAborted();
    const problem = await ensureTool(tool, { check, log });
    if (problem) problems.push(problem);
  }
  return problems;
}

/**
 * Setup for a command that needs `level`, quietly when nothing is missing. Setup's problems are
 * fatal only when a tool in `required` is still missing: the rest (wrk, for --cross-check) is
 * optional to this command. `again`: the command to run once it is fixed.
 */
async function setupIfNeeded(level, { required, again, signal, log = (line) => console.log(line) }) {
  if (!(await setup({ level, check: true, log: () => {}, signal })).length) return;
  log(`• Setup: installing what the ${level} needs`);
  if (!(await setup({ level, log, signal })).length) return;
  const missing = required.filter((name) => !findTool(name));
  if (missing.length) {
    throw new Error(
      `setup could not provide ${missing.join(', ')} (see above); fix it, then run ${again} again`,
    );
  }
  log(`• Setup reported problems (see above), but everything the ${level} needs is there: going on`);
}

module.exports = { LEVELS, EXTRAS, setup, setupIfNeeded };
