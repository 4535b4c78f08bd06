'use strict';
// reliability.md from reliability.json: a verdict line per scenario, then one table row per case.
const fs = require('node:fs');
const path = require('node:path');
const { markdownTable } = require('./markup');

const MD_FILE = 'reliability.md';

const ms = (v) => (v === null || v === undefined ? '–' : `${v} ms`);

function errorsText(errors) {
  const entries = Object.entries(errors || {});
  return entries.length ? entries.map(([kind, n]) => `${n} ${kind}`).join(', ') : 'none';
}

function injectedText(injected) {
  if (!injected.length) return '–';
  if (injected.length > 2) {
    return `${injected.length}× (${injected[0].atMs}–${injected[injected.length - 1].atMs} ms)`;
  }
  return injected.map((i) => `${i.what} at ${i.atMs} ms`).join('; ');
}

function lostText(lost) {
  if (lost === null || lost === undefined) return '–';
  if (typeof lost === 'number') return String(lost);
  return `${lost.count} of ${lost.acknowledged}`;
}

/** One extra of a scenario: a table with its title, or a paragraph. */
function extraLines(extra) {
  if (extra.text !== undefined) return [`**${extra.title}.** ${extra.text}`];
  const right = extra.head.map((_, i) => i).slice(1);
  return [`${extra.title}:`, '', markdownTable(extra, { right })];
}

/** The cases of a scenario, one row each. */
function caseTable(s) {
  const head = [
    'case',
    'injected',
    'load',
    'requests',
    'errors',
    'latency p50 / p99 / max',
    'recovery',
    'data lost',
  ];
  const rows = s.cases.map((c) => {
    const load = c.load || {};
    return [
      c.name,
      injectedText(c.injected),
      load.workload || '–',
      load.requests ?? '–',
      errorsText(c.errors),
      `${ms(load.p50)} / ${ms(load.p99)} / ${ms(load.max)}`,
      ms(c.recoveryMs),
      lostText(c.dataLost),
    ];
  });
  return markdownTable({ head, rows }, { right: [3, 6, 7] });
}

function scenarioSection(s) {
  const lines = [
    `## ${s.title}: ${s.verdict.pass ? 'PASS' : 'FAIL'}`,
    '',
    `Promise: ${s.promise}. ${s.description}.`,
    '',
    caseTable(s),
  ];
  // A scenario may lay out its own tables and texts (scenario.js: extras, kept in the document).
  for (const extra of s.extras || []) lines.push('', ...extraLines(extra));
  for (const reason of s.verdict.reasons) lines.push('', `- **${reason}**`);
  for (const note of s.verdict.notes) lines.push('', `- note: ${note}`);
  // Figures a scenario lays out itself are not repeated as JSON.
  const figures = s.extras ? [] : s.cases.filter((c) => Object.keys(c.figures).length);
  if (figures.length) {
    lines.push('', '<details><summary>figures per case</summary>', '');
    for (const c of figures) lines.push(`- ${c.name}: ${JSON.stringify(c.figures)}`);
    lines.push('', '</details>');
  }
  return lines.join('\n');
}

const verdictText = (doc) =>
  doc.pass ? 'every promise held' : doc.complete ? 'a promise was broken' : 'incomplete';

/** The verdict of each scenario, one row each. */
function verdictTable(doc) {
  return markdownTable({
    head: ['scenario', 'promise', 'verdict'],
    rows: doc.scenarios.map((s) => [s.title, s.promise, s.verdict.pass ? 'PASS' : 'FAIL']),
  });
}

function renderMarkdown(doc) {
  const head = [
    `# Reliability run ${doc.runId}: ${verdictText(doc)}`,
    '',
    `Lab: ${doc.lab.replicas} data-service instance(s), Redis ${doc.lab.redis.mode} (AOF fsync ${doc.lab.redis.fsync ?? 'off'}), ` +
      `router ${doc.lab.router.threads} thread(s), maxconn ${doc.lab.router.maxconn}. ` +
      `Started ${doc.startedAt}${doc.complete ? '' : ' (interrupted: only the scenarios below ran)'}.`,
    '',
    verdictTable(doc),
  ];
  return `${[head.join('\n'), ...doc.scenarios.map(scenarioSection)].join('\n\n')}\n`;
}

/** The matrix report's section (lib/report/index.js): the verdicts, and where the rest is. */
function reliabilitySection(doc) {
  return [
    `## Reliability under faults: ${verdictText(doc)}`,
    '',
    verdictTable(doc),
    '',
    `Each scenario's cases, errors, recovery and data lost: [${MD_FILE}](${MD_FILE}).`,
    '',
  ];
}

function writeMarkdown(dir, doc) {
  const file = path.join(dir, MD_FILE);
  fs.writeFileSync(file, renderMarkdown(doc));
  return file;
}

module.exports = {
  MD_FILE,
  renderMarkdown,
  writeMarkdown,
  reliabilitySection,
  verdictText,
  errorsText,
  injectedText,
  lostText,
};
