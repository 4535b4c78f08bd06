#!/usr/bin/env node
'use strict';
// `npm run setup`: installs what is missing, idempotently, and prints where each tool is.
const { TOOLS } = require('../lib/setup/registry');

const LEVELS = ['service', 'lab', 'test'];
const USAGE = `Usage: npm run setup -- [--for service|lab|test] [--check]

Installs what the project needs and is missing, then prints where each tool is.
  --for LEVEL   only what LEVEL needs: service (data service and its tests), lab (the local
                router lab and the matrix), test (everything; the default)
  --check       install nothing; exit 1 if anything is missing`;

function parseArgs(argv) {
  const opts = { level: 'test', check: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--help' || arg === '-h') {
      console.log(USAGE);
      process.exit(0);
    } else if (arg === '--check') opts.check = true;
    else if (arg === '--for') opts.level = argv[++i];
    else if (arg.startsWith('--for=')) opts.level = arg.slice(6);
    else throw new Error(`unknown argument '${arg}'\n\n${USAGE}`);
  }
  if (!LEVELS.includes(opts.level)) {
    throw new Error(`--for must be one of ${LEVELS.join(', ')}, not '${opts.level}'`);
  }
  return opts;
}

function describe(found) {
  return `${found.version.padEnd(16)} ${found.path}`;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
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
        problems.push(`${tool.name}: ${err.message}`);
        continue;
      }
    }
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
