'use strict';
// Inline SVG charts for report.html, drawn here so the report needs no script and no network.
// All charts are horizontal bar charts: one row per label, one or more bars per row.
const { isRouterFigure, byLabel } = require('./limits');
const { ms, us, spreadText, roleCost, medianUs } = require('./format');
const { escapeHtml: escapeXml } = require('./markup');

const COLORS = { http: '#4c78a8', edge: '#f58518', passthrough: '#54a24b', reencrypt: '#b279a2' };
const CAPACITY_COLOR = '#17becf';
const REFERENCE_COLORS = ['#9ecae9', '#ffbf79', '#88d27a', '#d6a5c9', '#bab0ac', '#e1c16e'];

/** A "nice" axis maximum and tick step for values up to max. */
function niceScale(max, ticks = 5) {
  if (!(max > 0)) return { max: 1, step: 0.2 };
  const raw = max / ticks;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  return { max: Math.ceil(max / step) * step, step };
}

function formatTick(v) {
  if (v >= 1000) return `${Number((v / 1000).toFixed(1))}k`;
  return String(Number(v.toFixed(2)));
}

/** Legend items flow left to right and wrap; widths estimated from the label (12px font). */
function legendLayout(legend, width, labelWidth) {
  const places = [];
  let lx = labelWidth;
  let line = 0;
  for (const item of legend) {
    const w = 24 + item.label.length * 6.8;
    if (lx + w > width && lx > labelWidth) {
      lx = labelWidth;
      line += 1;
    }
    places.push({ ...item, x: lx, y: 26 + line * 18 });
    lx += w;
  }
  return { places, lines: legend.length ? line + 1 : 0 };
}

function legendParts(places) {
  return places.flatMap((item) => [
    `<rect x="${item.x.toFixed(1)}" y="${item.y}" width="10" height="10" fill="${item.color}"/>`,
    `<text x="${(item.x + 14).toFixed(1)}" y="${item.y + 9}" class="legend">${escapeXml(item.label)}</text>`,
  ]);
}

/** The grid lines with their ticks, and the unit under the axis's end. */
function axisParts({ scale, x, top, height, unit, end }) {
  const parts = [];
  for (let v = 0; v <= scale.max + 1e-9; v += scale.step) {
    const gx = x(v).toFixed(1);
    parts.push(`<line x1="${gx}" y1="${top - 4}" x2="${gx}" y2="${height - 28}" class="grid"/>`);
    parts.push(
      `<text x="${gx}" y="${height - 14}" class="tick" text-anchor="middle">${formatTick(v)}</text>`,
    );
  }
  parts.push(`<text x="${end}" y="${height - 2}" class="tick" text-anchor="end">${escapeXml(unit)}</text>`);
  return parts;
}

/** Dashed vertical lines, each with its label in its own line above the plot. */
function markerParts(markers, { x, top, height }) {
  return markers.flatMap((marker) => {
    const mx = x(marker.value).toFixed(1);
    return [
      `<line x1="${mx}" y1="${top - 6}" x2="${mx}" y2="${height - 28}" class="marker" stroke="#d62728" stroke-dasharray="4 3"/>`,
      `<text x="${mx}" y="${top - 9}" class="tick" text-anchor="middle">${escapeXml(marker.label)}</text>`,
    ];
  });
}

/** One bar at `y`: its rectangle, hatching, whisker and figure. */
function barParts(bar, label, { y, x, labelWidth, barHeight }) {
  const w = Math.max(bar.value > 0 ? 1 : 0, x(bar.value || 0) - labelWidth);
  const parts = [
    `<rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${barHeight - 2}" fill="${bar.color}"><title>${escapeXml(bar.title || `${label}: ${bar.value}`)}</title></rect>`,
  ];
  if (bar.hatched)
    parts.push(
      `<rect x="${labelWidth}" y="${y}" width="${w.toFixed(1)}" height="${barHeight - 2}" fill="url(#hatch)"/>`,
    );
  let textX = labelWidth + w + 4;
  if (bar.whisker) {
    const [x1, x2] = [x(bar.whisker.min).toFixed(1), x(bar.whisker.max).toFixed(1)];
    const [mid, top1, bottom] = [y + (barHeight - 2) / 2, y + 1, y + barHeight - 3];
    parts.push(
      `<g class="whisker" stroke="#222" stroke-width="1.2"><line x1="${x1}" y1="${mid}" x2="${x2}" y2="${mid}"/>` +
        `<line x1="${x1}" y1="${top1}" x2="${x1}" y2="${bottom}"/>` +
        `<line x1="${x2}" y1="${top1}" x2="${x2}" y2="${bottom}"/></g>`,
    );
    textX = Math.max(textX, Number(x2) + 4);
  }
  if (bar.text)
    parts.push(
      `<text x="${textX.toFixed(1)}" y="${y + barHeight - 4}" class="value">${escapeXml(bar.text)}</text>`,
    );
  return parts;
}

const HATCH =
  '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#fff" fill-opacity="0.0"/><line x1="0" y1="0" x2="0" y2="6" stroke="#000" stroke-opacity="0.45" stroke-width="2"/></pattern></defs>';

/**
 * rows: [{ label, bars: [{ value, color, text?, hatched?, whisker?: { min, max } }], note? }]; bars
 * of a row are drawn side by side (grouped); a whisker is a min–max line across the bar. markers:
 * [{ value, label }], dashed vertical lines (a reference such as the handshake floor). Returns an
 * <svg> string.
 */
function barChart({
  title,
  unit,
  rows,
  width = 900,
  barHeight = 14,
  labelWidth = 190,
  legend = [],
  markers = [],
}) {
  const perRow = Math.max(1, ...rows.map((r) => r.bars.length));
  const rowHeight = perRow * barHeight + 10;
  const legendPlaces = legendLayout(legend, width, labelWidth);
  // A marker's label sits in its own line above the plot.
  const top = 34 + legendPlaces.lines * 18 + (markers.length ? 16 : 0);
  const plotWidth = width - labelWidth - 150;
  const height = top + rows.length * rowHeight + 32;
  const max = Math.max(
    0,
    ...rows.flatMap((r) => r.bars.map((b) => Math.max(b.value || 0, b.whisker ? b.whisker.max : 0))),
    ...markers.map((m) => m.value),
  );
  const scale = niceScale(max);
  const x = (v) => labelWidth + (Math.max(0, v) / scale.max) * plotWidth;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeXml(title)}">`,
    HATCH,
    `<text x="0" y="16" class="chart-title">${escapeXml(title)}</text>`,
    ...legendParts(legendPlaces.places),
    ...axisParts({ scale, x, top, height, unit, end: labelWidth + plotWidth }),
    // Drawn before the bars so that the bars and their figures stay readable over it.
    ...markerParts(markers, { x, top, height }),
  ];
  rows.forEach((row, r) => {
    const y0 = top + r * rowHeight;
    parts.push(
      `<text x="${labelWidth - 8}" y="${y0 + (row.bars.length * barHeight) / 2 + 4}" class="label" text-anchor="end">${escapeXml(row.label)}</text>`,
    );
    row.bars.forEach((bar, b) => {
      parts.push(...barParts(bar, row.label, { y: y0 + b * barHeight, x, labelWidth, barHeight }));
    });
  });
  parts.push('</svg>');
  return parts.join('');
}

function rpsChart(results) {
  return barChart({
    // Short enough for the chart's width; the table and the banner say why a cell is hatched.
    title: 'Successful requests per second per cell (hatched: not the router’s own figure)',
    unit: 'req/s',
    rows: results.cells.map((c) => ({
      label: c.name,
      bars: [
        {
          value: c.okRps,
          color: COLORS[c.termination],
          hatched: !isRouterFigure(c),
          text: `${Math.round(c.okRps)}${isRouterFigure(c) ? '' : ` ⚠ ${byLabel(c.limitedBy)}`}`,
          title: `${c.name}: ${c.okRps} successful req/s`,
        },
      ],
    })),
    legend: Object.entries(COLORS).map(([label, color]) => ({ label, color })),
  });
}

function latencyChart(results) {
  return barChart({
    title: 'Latency of successful requests per cell, p50 and p99 (connection set-up included)',
    unit: 'ms',
    rows: results.cells.map((c) => ({
      label: c.name,
      bars: [
        { value: c.p50 || 0, color: COLORS[c.termination], text: `p50 ${ms(c.p50)} ms` },
        { value: c.p99 || 0, color: '#bbbbbb', text: `p99 ${ms(c.p99)} ms` },
      ],
    })),
    legend: [
      { label: 'p50', color: '#4c78a8' },
      { label: 'p99', color: '#bbbbbb' },
    ],
  });
}

/**
 * The router's µs of CPU per request per cell: the bar at the median, the whisker from the
 * fastest to the slowest sample. One chart per connection mode: a close TLS cell costs 10–30× a
 * keep-alive one, so on one axis the keep-alive bars would be slivers. The close chart marks the
 * handshake floor measured in the run (a full handshake's cryptography), which close TLS cells
 * pay once per request.
 */
function costCharts(results) {
  const charts = [];
  for (const [connection, label] of [
    ['keepalive', 'keep-alive'],
    ['close', 'close'],
  ]) {
    const cells = results.cells.filter((c) => c.connection === connection && medianUs(c, 'router') !== null);
    if (!cells.length) continue;
    const floor = connection === 'close' ? results.handshakeFloor : null;
    charts.push(
      barChart({
        title: `Router CPU per request, ${label} cells: median, whisker min–max across samples`,
        unit: 'µs of router CPU per request',
        rows: cells.map((c) => {
          const s = roleCost(c, 'router').perRequestUs;
          return {
            label: c.name,
            bars: [
              {
                value: s.median,
                color: COLORS[c.termination],
                whisker: s.min === s.max ? null : { min: s.min, max: s.max },
                text: `${spreadText(s)} µs`,
                title: `${c.name}: router ${spreadText(s)} µs of CPU per request (median, min–max)`,
              },
            ],
          };
        }),
        legend: Object.entries(COLORS).map(([name, color]) => ({ label: name, color })),
        markers: floor ? [{ value: floor.floorUs, label: `handshake floor ${us(floor.floorUs)} µs` }] : [],
      }),
    );
  }
  return charts;
}

/**
 * One chart per comparison group: this run's ratios to http (req/s, hatched where it is not the
 * router's; capacity per core, always the router's) beside each reference's.
 */
function ratioChart(group) {
  const legend = [
    { label: 'this run, req/s', color: '#333333' },
    { label: 'this run, capacity/core (the router’s)', color: CAPACITY_COLOR },
    ...group.columns.map((col, i) => ({
      label: `${col.short} ${col.label}`,
      color: REFERENCE_COLORS[i % REFERENCE_COLORS.length],
    })),
  ];
  return barChart({
    title: `Relative to http, ${group.title}: req/s and router capacity per core`,
    unit: '× http',
    rows: group.rows.map((row) => ({
      label: row.termination,
      bars: [
        {
          value: row.run ? row.run.ratio : 0,
          color: '#333333',
          hatched: row.run && !row.run.routerFigure,
          text: row.run
            ? `${row.run.ratio.toFixed(2)}× req/s${row.run.routerFigure ? '' : ' ⚠'}`
            : 'not measured',
        },
        {
          value: row.run && row.run.capacityRatio !== null ? row.run.capacityRatio : 0,
          color: CAPACITY_COLOR,
          text:
            row.run && row.run.capacityRatio !== null
              ? `${row.run.capacityRatio.toFixed(2)}× capacity/core`
              : 'no router cost',
        },
        ...row.refs.map((ref, i) => ({
          value: ref.ratio,
          color: REFERENCE_COLORS[i % REFERENCE_COLORS.length],
          text: `${ref.ratio.toFixed(2)}×`,
          title: `${ref.title}, ${ref.label}: ${ref.value} req/s`,
        })),
      ],
    })),
    legend,
    width: 900,
  });
}

module.exports = { COLORS, niceScale, barChart, rpsChart, latencyChart, costCharts, ratioChart };
