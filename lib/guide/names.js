'use strict';
// What a guide's command names must exist: the npm script, each --option the script's command
// declares, each LAB_* knob, each k6 -e variable, each repository file. Pure: the caller hands in
// what exists (package.json's scripts, each command's declared flags, the knobs, a file test).
const { simpleCommands, npmRun, flagsOf } = require('./exercise');

// Paths under these folders are the repository's; anything else (.lab/, results/, /proc) is made
// at run time or belongs to the machine.
const REPO_PATH = /^(k6|bin|lib|docs|overlays|manifests|router|redis|data-service|test)\/[^\s]*$/;

/**
 * Problems with one command line, as sentences naming what does not exist. `known`:
 *   scripts: Set of npm script names
 *   flags(script): Set of the --options the script's command declares (null: not checked)
 *   knobs: Set of LAB_* variables the lab declares
 *   k6Variables(file): Set of the variables a k6 script (and its library) reads
 *   exists(path): does a repository path exist
 */
function commandProblems(text, known) {
  const problems = [];
  for (const { env, argv } of simpleCommands(text)) {
    for (const name of Object.keys(env)) {
      if (name.startsWith('LAB_') && !known.knobs.has(name)) problems.push(`${name} is not a lab knob`);
    }
    const npm = npmRun(argv);
    if (npm) {
      if (!known.scripts.has(npm.script)) {
        problems.push(`npm run ${npm.script}: there is no such npm script`);
        continue;
      }
      const declared = known.flags(npm.script);
      if (declared) {
        for (const flag of flagsOf(npm.args)) {
          if (!declared.has(flag)) problems.push(`npm run ${npm.script}: ${flag} is not one of its options`);
        }
      }
    }
    const k6 = argv[0] === 'k6' && argv[1] === 'run';
    if (k6) {
      const script = argv.slice(2).find((a) => a.endsWith('.js'));
      const variables = script && known.exists(script) ? known.k6Variables(script) : null;
      argv.forEach((word, i) => {
        if (word !== '-e' || !argv[i + 1] || !variables) return;
        const name = argv[i + 1].split('=')[0];
        if (!variables.has(name)) problems.push(`k6 run ${script}: it reads no variable ${name}`);
      });
    }
    for (const word of argv) {
      const file = word.replace(/[),.:;]+$/, '');
      if (REPO_PATH.test(file) && !/[<>*$]/.test(file) && !known.exists(file)) {
        problems.push(`${file} does not exist`);
      }
    }
  }
  return problems;
}

/** `--flag` names declared in a command's --help text (its options section, one per line). */
function flagsFromHelp(help) {
  return new Set([...help.matchAll(/^ {2}(?:-[a-zA-Z], )?(--[a-z][a-z0-9-]*)/gm)].map((m) => m[1]));
}

/** The `node <file>` a package.json script runs last (its entry point), or null. */
function scriptEntry(scriptText) {
  const nodes = [...scriptText.matchAll(/\bnode\s+(\S+\.js)/g)];
  return nodes.length ? nodes[nodes.length - 1][1] : null;
}

/** `npm run …` commands written inline in prose: `npm run sizing -- results/x --tps 5000`. */
function inlineCommands(markdown) {
  const withoutBlocks = markdown.replace(/^```[\s\S]*?^```/gm, '');
  return [...withoutBlocks.matchAll(/`(npm run [^`]+)`/g)].map((m) => m[1]);
}

/** Relative links of a Markdown page (no scheme, no pure anchors): [text](path#anchor). */
function relativeLinks(markdown) {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((href) => !/^[a-z]+:/.test(href) && !href.startsWith('#'))
    .map((href) => href.split('#')[0]);
}

module.exports = { commandProblems, flagsFromHelp, scriptEntry, inlineCommands, relativeLinks, REPO_PATH };
