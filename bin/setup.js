#!/usr/bin/env node
'use strict';
// `npm run setup`: installs what is missing, idempotently, and prints where each tool is.
const { defineCommand, commandLine } = require('../lib/core/settings');
const { TOOLS } = require('../lib/setup/registry');

const LEVELS = ['service', 'lab', 'test'];
const COMMAND = defineCommand({
  usage: `npm run setup -- [--for ${LEVELS.join('|')}] [--check]`,
  description: 'Installs what the project needs and is missing, then prints where each tool is.',
  settings: [
    {
      name: 'level',
      flag: '--for',
      arg: 'LEVEL',
      type: 'enum',
      choices: LEVELS,
      default: 'test',
      help:
        'only what LEVEL needs: service (data service and its tests), lab (the local router lab ' +
        'and the matrix), test (everything)',
    },
    {
      name: 'check',
      flag: '--check',
      type: 'boolean',
      help: 'install nothing; exit 1 if anything is missing',
    },
  ],
});

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

async function main() {
  const opts = commandLine(COMMAND, process.argv.slice(2), { name: 'setup' }).values;
  const wanted = TOOLS.filter((t) => LEVELS.indexOf(t.neededFor) <= LEVELS.indexOf(opts.level));
  const log = (line) => console.log(line);
  const problems = [];
  console.log(`setup (for ${opts.level}${opts.check ? ', check only' : ''}):`);
  for (const tool of wanted) {
    let found = tool.locate();
    const usable = found && !found.tooOld;
    if (!usable && !opts.check) {
      log(
        `  … ${tool.name}: ${found ? `${found.version} is older than ${found.min}` : 'missing'}, installing`,
      );
      try {
        await tool.install(log);
        found = tool.locate();
      } catch (err) {
        if (!useFallback(tool, `not built: ${err.message}`, log)) {
          problems.push(`${tool.name}: ${err.message}`);
        }
        continue;
      }
    }
    if (!usable && opts.check && useFallback(tool, 'not built', log)) continue;
    if (found && !found.tooOld) {
      log(`  ✓ ${tool.name.padEnd(32)} ${describe(found)}`);
    } else {
      const why = found ? `${found.version} at ${found.path} is older than ${found.min}` : 'not installed';
      problems.push(`${tool.name}: ${why}${tool.optional ? ` (${tool.optional})` : ''}`);
    }
  }
  if (problems.length) {
    console.error(`\nsetup: ${problems.length} problem(s):\n${problems.map((p) => `  ✗ ${p}`).join('\n')}`);
    process.exit(1);
  }
}

main().catch((err) => {
  console.error(`setup: ${err.message}`);
  process.exit(2);
});
