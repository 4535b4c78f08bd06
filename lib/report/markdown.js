'use strict';
// report.md: the run as Markdown tables, ready to paste into an issue or a slide.
const t = require('./tables');
const { isRouterFigure, isUnmeasured } = require('./limits');

function renderMarkdown(results) {
  const out = [];
  const saturated = results.cells.filter((c) => !isRouterFigure(c) && !isUnmeasured(c));
  const unmeasured = results.cells.filter(isUnmeasured);
  out.push(`# Router matrix ${results.id}`, '');
  if (!results.complete) out.push('**This run was interrupted: only the cells below finished.**', '');
  out.push(
    `${results.cells.length} cell(s), ${results.environment.target} target, measured ${results.startedAt}. ` +
      'Latency is for successful responses, from the merged distribution of all samples, connection set-up included.',
    '',
  );
  if (saturated.length) {
    out.push(
      `> **${saturated.length} of ${results.cells.length} cells were not limited by the router.** ` +
        'Their req/s is what the load generator or the data service could do, not what the router can: ' +
        'read them as a lower bound for the router.',
      '',
    );
  }
  if (unmeasured.length) {
    out.push(
      `> **No verdict for ${unmeasured.length} cell(s):** what limited them was not measured, ` +
        'so their req/s is not claimed as the router’s (see Saturation).',
      '',
    );
  }
  out.push('## Results', '', t.markdownTable(t.cellRows(results)), '');
  const contended = results.cells.filter((c) => c.limitedBy.hostBusy);
  if (contended.length) {
    out.push(
      `> **The host was busy with other work during ${contended.length} cell(s)**: their figures are lower and noisier than this machine can do.`,
      '',
    );
  }
  if (results.cells.some((c) => c.limitedBy.reasons.length))
    out.push('## Saturation', '', t.markdownTable(t.saturationRows(results)), '');
  out.push(
    '## Where the time goes (p50, ms)',
    '',
    '`waiting` is time to first byte after the request was sent; `service` is the time the data service itself reported ' +
      '(`Server-Timing: app`); the difference is the router and the network.',
    '',
    t.markdownTable(t.decompositionRows(results)),
    '',
  );
  if (results.cells.some((c) => c.crossCheck)) {
    out.push(
      '## Cross-check: k6 vs wrk (keep-alive cells)',
      '',
      t.markdownTable(t.crossCheckRows(results)),
      '',
    );
  }
  out.push(
    '## Compared with Red Hat’s figures',
    '',
    'Absolute figures from other hardware are not comparable one to one. Each termination is shown as a ratio to the ' +
      '`http` row measured under the same conditions; “→ req/s here” is the reference ratio applied to this run’s http ' +
      'figure: what this machine would do if it behaved like the reference. ⚠ marks a cell whose figure is not the router’s.',
    '',
  );
  for (const group of t.comparisonGroups(results)) {
    out.push(
      `### ${group.sizeLabel} pages, ${group.connection}`,
      '',
      t.markdownTable(t.referenceRows(group)),
      '',
    );
  }
  out.push('### The reference tables (req/s)', '');
  for (const table of results.reference.tables) {
    out.push(
      `**${table.title}** — ${table.conditions}.`,
      '',
      t.markdownTable(t.referenceTableRows(table)),
      '',
    );
  }
  const bank = results.reference.bank;
  out.push(
    `**${bank.title}** — ${bank.conditions}: target ${bank.targetTps} TPS, service time about ${bank.serviceTimeMs} ms, end to end ${bank.endToEndMs.min}–${bank.endToEndMs.max} ms; ${bank.finding}.`,
    '',
  );
  out.push('## Environment', '', t.markdownTable(t.environmentRows(results)), '');
  return `${out.join('\n')}\n`;
}

module.exports = { renderMarkdown };
