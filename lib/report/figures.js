'use strict';
// The per-cell figures of the report's main table, declared once: its columns in Markdown, HTML
// and the console (tables.js cellRows) all come from this list, in the shape of compare's FIGURES.
const { FIGURES: COMPARED } = require('../results-model/comparison');
const { limitLabel } = require('./limits');
const { num, ms, pct, spreadText, roleCost } = require('./format');

/** A generator figure named by the tool that made it ('k6 126'), or '–' where none was measured. */
const withTool = (cell, text) => (text === '–' ? text : `${cell.generator.tool} ${text}`);

/** A role's µs of CPU per request in a cell: { min, median, max } across samples, or null. */
const perRequestUs = (cell, role) => {
  const cost = roleCost(cell, role);
  return (cost && cost.perRequestUs) || null;
};

const COMPARED_KEYS = new Set(COMPARED.map((f) => f.key));

/**
 * A figure is { key, label, of, format, comparable }: `of` reads its value from a cell (the
 * reducer), `format` writes it (value, cell) → text (the cell for what the value alone does not
 * say: which generator), `label` heads its column; the shape of compare's FIGURES
 * (lib/results-model/comparison.js). `comparable`: compare sets the figure side by side across
 * runs, read from compare's own list by key so that the two cannot disagree.
 *
 * The main table has a column per figure, in this order. The router's CPU per request leads: it is
 * its own figure whoever ran out of CPU first. Each role's cores are in the limits table
 * (tables.js limitRows), so that the console table stays readable. A key that compare uses too
 * (routerUs, generatorUs, p99) names the same figure there: compare's `req/s` is every response
 * per sample, not this table's successful ones, so `okRps` is a key of its own.
 */
const CELL_FIGURES = [
  { key: 'cell', label: 'cell', of: (c) => c.name },
  {
    key: 'routerUs',
    label: 'router µs/req',
    of: (c) => perRequestUs(c, 'router'),
    format: (v) => spreadText(v),
  },
  {
    key: 'capacityPerCore',
    label: 'router capacity/core (req/s)',
    of: (c) => c.capacity && c.capacity.perCoreRps,
    format: (v) => num(v),
  },
  {
    key: 'generatorUs',
    label: 'generator µs/req',
    of: (c) => perRequestUs(c, c.generator.tool),
    format: (v, c) => withTool(c, spreadText(v)),
  },
  { key: 'okRps', label: 'ok req/s', of: (c) => c.okRps, format: (v) => num(v) },
  { key: 'p50', label: 'p50 ms', of: (c) => c.p50, format: (v) => ms(v) },
  { key: 'p90', label: 'p90 ms', of: (c) => c.p90, format: (v) => ms(v) },
  { key: 'p99', label: 'p99 ms', of: (c) => c.p99, format: (v) => ms(v) },
  { key: 'max', label: 'max ms', of: (c) => c.max, format: (v) => ms(v) },
  { key: 'errorRate', label: 'errors', of: (c) => c.errorRate, format: (v) => (v ? pct(v) : '0') },
  { key: 'tlsHandshakeMs', label: 'TLS ms per handshake', of: (c) => c.tlsHandshakeMs, format: (v) => ms(v) },
  {
    key: 'serviceP50',
    label: 'service p50 ms',
    of: (c) => c.serviceTimeMs && c.serviceTimeMs.p50,
    format: (v) => ms(v),
  },
  { key: 'limitedBy', label: 'limited by', of: (c) => c.limitedBy, format: (v) => limitLabel(v) },
].map((figure) => ({ format: (v) => String(v), ...figure, comparable: COMPARED_KEYS.has(figure.key) }));

/** One figure of one cell as the tables print it. */
const figureText = (figure, cell) => figure.format(figure.of(cell), cell);

const BY_KEY = new Map(CELL_FIGURES.map((f) => [f.key, f]));

/** The value of the figure `key` in `cell`, read as the tables read it (the console words it its own way). */
function figureValue(key, cell) {
  const figure = BY_KEY.get(key);
  if (!figure) throw new Error(`no cell figure '${key}' (known: ${[...BY_KEY.keys()].join(', ')})`);
  return figure.of(cell);
}

module.exports = { CELL_FIGURES, figureText, figureValue, withTool };
