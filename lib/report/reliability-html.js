'use strict';
// reliability.html, one self-contained page with the matrix report's primitives (./markup.js): the
// content of reliability.md. Its body is also the reliability section of the matrix report when
// both share a results directory.
const fs = require('node:fs');
const path = require('node:path');
const { escapeHtml: escape, htmlTable: table, htmlHeading, htmlPage } = require('./markup');
const { errorsText, injectedText, lostText, verdictText } = require('./reliability-markdown');

const HTML_FILE = 'reliability.html';

const ms = (v) => (v === null || v === undefined ? '–' : `${v} ms`);

function extraHtml(extra, h) {
  if (extra.text !== undefined)
    return `<p><strong>${escape(extra.title)}.</strong> ${escape(extra.text)}</p>`;
  return `${htmlHeading(h + 1, extra.title)}${table({ head: extra.head, rows: extra.rows.map((r) => r.map(String)) })}`;
}

function scenarioHtml(s, h) {
  const rows = s.cases.map((c) => {
    const load = c.load || {};
    return [
      c.name,
      injectedText(c.injected),
      String(load.requests ?? '–'),
      errorsText(c.errors),
      `${ms(load.p50)} / ${ms(load.p99)} / ${ms(load.max)}`,
      ms(c.recoveryMs),
      lostText(c.dataLost),
    ];
  });
  const box = s.verdict.pass
    ? `<div class="ok"><strong>PASS</strong>: ${escape(s.promise)}.</div>`
    : `<div class="alert"><strong>FAIL</strong>: ${escape(s.promise)}.<ul>${s.verdict.reasons.map((r) => `<li>${escape(r)}</li>`).join('')}</ul></div>`;
  return [
    htmlHeading(h, s.title),
    box,
    `<p>${escape(s.description)}. Load: ${escape(s.cases[0]?.load?.workload || '–')}.</p>`,
    table(
      {
        head: ['case', 'injected', 'requests', 'errors', 'latency p50 / p99 / max', 'recovery', 'data lost'],
        rows,
      },
      // What was injected is a sentence (a killed Redis, a rollout's steps): it wraps.
      { wrap: [1] },
    ),
    ...(s.extras || []).map((extra) => extraHtml(extra, h)),
    ...figuresHtml(s),
    ...(s.verdict.notes.length
      ? [`<ul class="muted">${s.verdict.notes.map((n) => `<li>${escape(n)}</li>`).join('')}</ul>`]
      : []),
  ].join('\n');
}

/** A document written before scenarios stored their extras: the raw figures, as the Markdown shows. */
function figuresHtml(s) {
  const figures = s.extras ? [] : s.cases.filter((c) => Object.keys(c.figures).length);
  if (!figures.length) return [];
  const items = figures.map((c) => `<li>${escape(c.name)}: ${escape(JSON.stringify(c.figures))}</li>`);
  return [`<details><summary>figures per case</summary><ul>${items.join('')}</ul></details>`];
}

/** The run's body below its title: the lab, the verdicts, a section per scenario at level `h`. */
function reliabilityBody(doc, { h = 2 } = {}) {
  return [
    `<p class="muted">Lab: ${doc.lab.replicas} data-service instance(s), Redis ${escape(doc.lab.redis.mode)} ` +
      `(AOF fsync ${escape(doc.lab.redis.fsync ?? 'off')}), router ${doc.lab.router.threads} thread(s), maxconn ` +
      `${doc.lab.router.maxconn}. Started ${escape(doc.startedAt)}.</p>`,
    doc.complete
      ? ''
      : '<div class="alert"><strong>This run was interrupted:</strong> only the scenarios below ran.</div>',
    // The promise last, wrapped: it is a sentence.
    table(
      {
        head: ['scenario', 'verdict', 'promise'],
        rows: doc.scenarios.map((s) => [s.title, s.verdict.pass ? 'PASS' : 'FAIL', s.promise]),
      },
      { wrap: [-1] },
    ),
    ...doc.scenarios.map((s) => scenarioHtml(s, h)),
  ];
}

/** The matrix report's section (lib/report/index.js): the same body, one heading level down. */
function reliabilitySection(doc) {
  return [
    htmlHeading(2, `Reliability under faults: ${verdictText(doc)}`, { id: 'reliability' }),
    `<p>From <a href="${HTML_FILE}">${HTML_FILE}</a> in this directory (<code>npm run reliability -- --out</code> this directory).</p>`,
    ...reliabilityBody(doc, { h: 3 }),
  ];
}

function renderHtml(doc) {
  return htmlPage(`Reliability ${doc.runId}`, [
    htmlHeading(1, `Reliability run ${doc.runId}: ${verdictText(doc)}`),
    ...reliabilityBody(doc),
  ]);
}

function writeHtml(dir, doc) {
  const file = path.join(dir, HTML_FILE);
  fs.writeFileSync(file, renderHtml(doc));
  return file;
}

module.exports = { HTML_FILE, renderHtml, writeHtml, reliabilitySection };
