'use strict';
// The guide's pages as Jest tests: each page's `sh exercise` blocks, read from the page (never
// copied here), in their quick form against one real lab (runner.js), its lesson asserted
// (lessons.js). A block whose needs this machine lacks is skipped with the page's own reason.
const fs = require('node:fs');
const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');
const { ROOT } = require('../../lib/core/paths');
const { allowedCoreList } = require('../../lib/core/cpus');
const { findTool } = require('../../lib/core/tools');
const { exerciseBlocks, blockCommands, needsOf } = require('../../lib/guide/exercise');
const { scriptEntry } = require('../../lib/guide/names');
const { ExerciseLab, runPage, labCommand } = require('./runner');
const { LESSONS } = require('./lessons');
const { SHARED_KNOBS } = require('../support/lab-pool');

/** A page's own time: its commands run one by one, quick (runner.js gives each 4 minutes). */
const PAGE_TIMEOUT_MS = 600000;
// A page whose command starts its own labs: its command may take 15 minutes (runner.js).
const OWN_LABS_TIMEOUT_MS = 1200000;

const DOCS = path.join(ROOT, 'docs');
const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const read = (page) => fs.readFileSync(path.join(DOCS, page), 'utf8');

/** The guide's pages: those with `sh exercise` blocks (the exercises, and Size your cluster). */
const GUIDE_PAGES = fs.readdirSync(DOCS).filter((f) => f.endsWith('.md') && exerciseBlocks(read(f)).length);
/** The guide's pages in the order its index gives them. */
const INDEX_ORDER = [
  ...new Set(
    [...read('README.md').matchAll(/\]\(([a-z0-9-]+\.md)\)/g)]
      .map((m) => m[1])
      .filter((p) => GUIDE_PAGES.includes(p)),
  ),
];

/** Why this machine cannot run a block, or null. */
function unmet(block) {
  const why = block.attrs.why ? `: ${block.attrs.why}` : '';
  for (const need of needsOf(block.attrs)) {
    if (need.kind === 'cores') {
      const have = allowedCoreList().length;
      if (have < Number(need.value)) return `needs ${need.value} cores, this machine allows ${have}${why}`;
    } else if (need.kind === 'root') {
      return `changes a setting of the whole machine (root), run by hand only${why}`;
    } else if (need.kind === 'real-router') {
      if (process.getuid() !== 0) return `needs root for the real router's pod network${why}`;
    } else if (need.kind === 'tool') {
      if (!findTool(need.value)) return `needs ${need.value}: npm run setup -- --with ${need.value}${why}`;
    } else if (need.kind === 'cluster') {
      return `needs an OpenShift cluster; checked offline only (test/guide/openshift-offline.test.js)${why}`;
    } else if (need.kind === 'script') {
      // Both the npm script and the file it runs: a branch not merged yet brings them together.
      const entry = scriptEntry(scripts[need.value] || '') || `bin/${need.value.replace(':', '-')}.js`;
      if (!scripts[need.value] || !fs.existsSync(path.join(ROOT, entry))) {
        return `needs npm run ${need.value} (${entry}), which this checkout does not have yet${why}`;
      }
    } else return `unknown need ${need.kind}`;
  }
  return null;
}

/** The labs a page's runnable commands start (lab:up and the like), in order. */
const labsOf = (page) =>
  exerciseBlocks(read(page))
    .filter((b) => !unmet(b))
    .flatMap((b) => blockCommands(b.text))
    .map(({ text }) => labCommand(text))
    .filter(Boolean);
const setsKnobs = (page) => labsOf(page).some((lab) => Object.keys(lab.knobs).length);
/**
 * Last of all: the page whose last lab is the lab with pods, left up (runner.js keeps lab:down for
 * later) for test/node/pods-lab.test.js if it runs next; any page after it would take it down.
 */
const endsOnPods = (page) =>
  isDeepStrictEqual(
    labsOf(page)
      .filter((lab) => lab.script === 'lab:up')
      .at(-1)?.knobs,
    SHARED_KNOBS.pods,
  );
/**
 * The order the test runs them: the index's, except that pages on the default lab come first, so
 * that the suite restarts the lab only for the pages that set knobs.
 */
const RUN_ORDER = [
  ...INDEX_ORDER.filter((p) => !setsKnobs(p)),
  ...INDEX_ORDER.filter((p) => setsKnobs(p) && !endsOnPods(p)),
  ...INDEX_ORDER.filter(endsOnPods),
];

/**
 * Jest tests for `pages`, in that order, against one ExerciseLab: per page, its runnable blocks
 * run and its lesson asserted, and a skipped test naming each block this machine cannot run.
 */
function testPages(pages) {
  const lab = new ExerciseLab();
  afterAll(() => lab.end(), PAGE_TIMEOUT_MS);
  for (const page of pages) testPage(page, lab);
}

function testPage(page, lab) {
  const blocks = exerciseBlocks(read(page));
  const runnable = blocks.filter((b) => !unmet(b));
  for (const b of blocks.filter(unmet)) {
    test.skip(`${page} (block on line ${b.line}) skipped: ${unmet(b)}`, () => {});
  }
  if (!runnable.length) return;
  const lesson = LESSONS[page] || { check: () => {} };
  // A page whose command starts its own labs (route-scale) runs longer: see runOwnLabsOnce.
  const ownLabs = runnable.some((b) => b.attrs.lab === 'none');
  test(
    `${page}: its commands run, quick, and its lesson holds`,
    async () => {
      const run = await runPage(runnable, lab);
      const failed = run.filter((c) => c.code !== 0 && !(lesson.mayFail || []).some((re) => re.test(c.text)));
      expect(
        failed.map((c) => `${c.ran} → exit ${c.code}\n${c.stdout.slice(-1500)}\n${c.stderr.slice(-1500)}`),
      ).toEqual([]);
      await lesson.check({ run, lab });
    },
    ownLabs ? OWN_LABS_TIMEOUT_MS : PAGE_TIMEOUT_MS,
  );
}

module.exports = { GUIDE_PAGES, INDEX_ORDER, RUN_ORDER, endsOnPods, setsKnobs, testPages };
