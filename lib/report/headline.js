'use strict';
// The banner at the top of report.md and report.html, as plain text that each renderer marks up:
// the router's own figures first (CPU per request, per full handshake against the floor, capacity
// per core), then what limited each cell, worded from its limitedBy. It formats; it decides nothing.
const {
  num,
  us,
  rate,
  spreadText,
  roleCost,
  medianUs,
  floorParts,
  cellWords,
  isHandshakeCell,
  keyLabel,
} = require('./format');

/** The cell a sentence leads with: the smallest page of termination × connection that has a cost. */
function leadCell(cells, termination, connection) {
  return cells
    .filter((c) => c.termination === termination && c.connection === connection)
    .filter((c) => medianUs(c, 'router') !== null)
    .sort((a, b) => a.pageSize - b.pageSize)[0];
}

/** A close TLS cell's median multiple of the floor, naming the service where it did the handshakes. */
function floorMultipleText(cell) {
  const f = cell && cell.floorMultiple;
  if (!f) return '–';
  return `${f.median.toFixed(2)}×${f.role === 'service' ? ' (at the data service)' : ''}`;
}

/**
 * Which tools made a handshake price's figures: one where haload drove all three runs; otherwise
 * the cells' own, an estimate where they differ, with how to get one tool where it was not asked.
 */
function priceSource(price, { crossChecked = false } = {}) {
  if (price.oneGenerator)
    return `${price.oneGenerator.tool} drove the full, resumed and plain close runs alike`;
  const g = price.generators;
  if (!g) return null;
  const runs = Object.entries({ full: g.full, resumed: g.resumed, plain: g.plain }).filter(
    ([, tool]) => tool,
  );
  if (new Set(runs.map(([, tool]) => tool)).size === 1) return `${g.full} drove them all`;
  const hint = crossChecked ? '' : '; --cross-check drives all three with haload';
  return `${runs.map(([run, tool]) => `${tool} ${run}`).join(', ')}: across tools and loads, an estimate${hint}`;
}

/**
 * The lead's sentences on resumption, from the router's handshake price: what resuming saves and,
 * beyond a plain close (http), a full handshake's cost and a resumed session's own, from one
 * generator where there is one. [] without a price.
 */
function resumptionWords(price, options) {
  if (!price) return [];
  const p = price.oneGenerator ?? price;
  const source = priceSource(price, options);
  const words = [
    `Resuming the TLS session instead, it spent ${us(p.resumedUs)} µs per request in ` +
      `${price.termination} ${price.resumedCell.split(':')[1]} close: resuming saves the router ` +
      `${us(p.priceUs)} µs` +
      (p.floorMultiple !== null ? `, ${p.floorMultiple.toFixed(2)}× the floor` : '') +
      (price.hostBusy ? ', noisy: other work kept the host busy' : '') +
      (source ? ` (${source}).` : '.'),
  ];
  if (p.plainUs === null) return words;
  const times =
    p.fullBeyondPlainMultiple !== null ? ` (${p.fullBeyondPlainMultiple.toFixed(2)}× the floor)` : '';
  words.push(
    `Beyond a plain close (http, ${us(p.plainUs)} µs), a full handshake costs it ` +
      `${us(p.fullBeyondPlainUs)} µs${times} and a resumed session ${us(p.resumedBeyondPlainUs)} µs of its own.`,
  );
  return words;
}

// Beside every Gateway figure (issue 35): the lab's upstream Envoy lacks Istio's own filters.
const GATEWAY_CAVEAT =
  "Upstream Envoy runs none of Istio's own filters (metadata exchange, ALPN, stats), which OpenShift's " +
  "gateways run: a cluster's Envoy spends a little more per request.";

/** Who spent it: "the router" is HAProxy's word; under the Gateway API the data path is Envoy. */
function spender(results) {
  const envoy = results.environment?.router?.envoy;
  return envoy ? `Envoy ${envoy} (the Gateway's data path)` : 'The router';
}

/**
 * The router's figures: { lead: [sentence], table: { head, rows }, floor: text }. The table
 * pivots the cells: one row per termination and page size, keep-alive beside close. Null when no
 * cell has a router cost (an in-cluster run measures no CPU).
 */
function routerFigures(results) {
  const cells = results.cells.filter((c) => medianUs(c, 'router') !== null);
  if (!cells.length) return null;
  const floor = results.handshakeFloor;
  const lead = [];
  const first = leadCell(cells, 'http', 'keepalive') || cells[0];
  const cap = first.capacity;
  lead.push(
    `${spender(results)} spent ${us(medianUs(first, 'router'))} µs of CPU per request over ${cellWords(first)}` +
      // The cost per request falls as the rate rises (fixed work spread thinner): say which rate.
      (first.okRps > 0 ? ` at ${rate(first.okRps)} req/s from ${first.generator?.tool ?? 'k6'}` : '') +
      (cap
        ? `: ${rate(cap.perCoreRps)} req/s per core, ${rate(cap.projectedRps)} req/s projected at its ` +
          `${cap.usableCores} usable core(s) (a projection: the cost per request assumed flat up to saturation).`
        : '.'),
  );
  if (results.environment?.router?.envoy) lead.push(GATEWAY_CAVEAT);
  const fullOnly = cells.filter(isHandshakeCell);
  const edge = leadCell(fullOnly, 'edge', 'close') || leadCell(fullOnly, 'reencrypt', 'close');
  const perHandshake = edge && medianUs(edge, 'router', 'perHandshakeUs');
  if (perHandshake !== null && perHandshake !== undefined) {
    const f = edge.floorMultiple;
    lead.push(
      `It spent ${us(perHandshake)} µs per full handshake in ${cellWords(edge)}` +
        (f && floor
          ? `: ${f.median.toFixed(2)}× the handshake floor of ${us(floor.floorUs)} µs (${floorParts(floor)}).`
          : '; the handshake floor was not measured in this run.'),
    );
  }
  const crossChecked = Boolean(results.options?.crossCheck);
  lead.push(
    ...resumptionWords(
      results.handshakePrices.find((p) => p.role === 'router'),
      { crossChecked },
    ),
  );
  const keys = [...new Set(cells.map((c) => `${c.termination} ${c.name.split(':')[1]}`))];
  // Close cells through a TLS route come in two kinds; http's close cell has none.
  const find = (key, connection, tlsSession = null) =>
    cells.find(
      (c) =>
        `${c.termination} ${c.name.split(':')[1]}` === key &&
        c.connection === connection &&
        (!c.tlsSession || c.tlsSession === tlsSession),
    );
  const resumed = cells.some((c) => c.tlsSession === 'resumed');
  const perCore = (c) => (c && c.capacity ? num(c.capacity.perCoreRps) : '–');
  const cost = (c) => spreadText(c && roleCost(c, 'router') && roleCost(c, 'router').perRequestUs);
  const table = {
    head: [
      'cell',
      'keep-alive µs/req',
      'keep-alive capacity/core (req/s)',
      'close µs/req (full handshakes)',
      'close capacity/core (req/s)',
      'close: cost per handshake ÷ floor',
      ...(resumed ? ['close µs/req (TLS sessions resumed)', 'resumed capacity/core (req/s)'] : []),
    ],
    rows: keys.map((key) => {
      const [keepalive, close] = [find(key, 'keepalive'), find(key, 'close', 'full')];
      const again = find(key, 'close', 'resumed');
      return [
        key,
        cost(keepalive),
        perCore(keepalive),
        cost(close),
        perCore(close),
        close && isHandshakeCell(close) ? floorMultipleText(close) : '–',
        ...(resumed ? (again && again.tlsSession ? [cost(again), perCore(again)] : ['–', '–']) : []),
      ];
    }),
  };
  const floorLine = floor
    ? `Handshake floor: ${us(floor.floorUs)} µs per full handshake (${keyLabel(floor.key)} signature ${us(floor.signUs)} µs + ${floor.group} key exchange ${us(floor.keyExchangeUs)} µs), timed in this run. Passthrough’s handshakes happen at the data service.`
    : results.cells.some(isHandshakeCell)
      ? 'The handshake floor was not measured in this run.'
      : null;
  return { lead, table, floor: floorLine };
}

/**
 * What limited the cells, one group per verdict that occurs: { key, title, cells: [name] }. The
 * figures behind each cell's verdict are in the limits table (tables.js limitRows).
 */
function limitGroups(results) {
  const all = results.cells;
  const having = (part) => all.filter((c) => c.limitedBy.by.split('+').includes(part));
  const groups = [
    {
      key: 'router',
      cells: having('router'),
      title: (n) =>
        `The router was at its own limit in ${n} of ${all.length} cells: their req/s is the router’s, the check of its projected capacity.`,
    },
    {
      key: 'generator',
      cells: having('generator'),
      title: (n) =>
        `The load generator was the limit in ${n} of ${all.length} cells. Their req/s is what the load generator could send, not what the router can serve: a lower bound for the router (its µs per request above is its own all the same).`,
    },
    {
      key: 'backend',
      cells: having('backend'),
      title: (n) => `The data service was the limit in ${n} cell(s).`,
    },
    {
      key: 'host',
      cells: all.filter((c) => c.limitedBy.by === 'host'),
      title: (n) =>
        `Other work on the machine took the host in ${n} cell(s), with no role of the test at its own limit: their req/s is lower and noisier than the router can do.`,
    },
    {
      key: 'shared',
      cells: all.filter((c) => c.limitedBy.by === 'shared'),
      title: (n) =>
        `No role was at its own limit in ${n} cell(s), but the host was full: the roles shared its cores (each role’s share below), so their req/s is not the router’s.`,
    },
    {
      key: 'load',
      cells: all.filter((c) => c.limitedBy.by === 'load'),
      title: (n) => `The offered load set the figure in ${n} cell(s): the host had idle cores.`,
    },
    {
      key: 'unknown',
      cells: all.filter((c) => c.limitedBy.by === 'unknown'),
      title: (n) =>
        `No verdict for ${n} cell(s): what limited them was not measured, so their req/s is not claimed as the router’s.`,
    },
  ];
  return groups
    .filter((g) => g.cells.length)
    .map((g) => ({
      key: g.key,
      title: g.title(g.cells.length),
    }));
}

module.exports = { routerFigures, limitGroups };
