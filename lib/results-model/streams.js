'use strict';
// The router's HTTP streams by version (lib/load/router-counters.js reads them): requests its Route
// frontends received and streams its Route backends opened to services, as { received, sent }. Pure.

const VERSIONS = ['h1', 'h2'];
const SIDES = ['received', 'sent'];

/** { received: {h1, h2}, sent: {h1, h2} } with each count from `count(side, version)`. */
const bySide = (count) =>
  Object.fromEntries(
    SIDES.map((side) => [side, Object.fromEntries(VERSIONS.map((v) => [v, count(side, v)]))]),
  );

/**
 * Streams counted between two cumulative readings, or null where either lacks them or a count went
 * down: a reload between them started a new HAProxy, whose counters start at 0.
 */
function streamsBetween(first, last) {
  if (!first || !last) return null;
  const counted = bySide((side, v) => last[side][v] - first[side][v]);
  return SIDES.some((side) => VERSIONS.some((v) => counted[side][v] < 0)) ? null : counted;
}

/** Stream counts of several samples added up, or null where none counted them. */
function addStreams(list) {
  const counted = list.filter(Boolean);
  if (!counted.length) return null;
  return bySide((side, v) => counted.reduce((sum, s) => sum + s[side][v], 0));
}

/** The share of `side`'s streams in `version` (0–1), or null where none was counted. */
function streamShare(streams, side, version) {
  const counts = streams?.[side];
  const total = counts ? VERSIONS.reduce((sum, v) => sum + counts[v], 0) : 0;
  return total ? counts[version] / total : null;
}

module.exports = { streamsBetween, addStreams, streamShare };
