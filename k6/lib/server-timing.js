'use strict';
// Parses the Server-Timing header the data service sends: `app;dur=0.42, redis;dur=0.18`.

const ENTRY = /([A-Za-z0-9_-]+)\s*;[^,]*?dur=([0-9.]+)/g;

/** { app: 0.42, redis: 0.18 } in ms; {} when the header is absent. */
function parseServerTiming(header) {
  const timings = {};
  if (!header) return timings;
  const text = Array.isArray(header) ? header.join(',') : String(header);
  ENTRY.lastIndex = 0;
  let match;
  while ((match = ENTRY.exec(text)) !== null) timings[match[1]] = Number(match[2]);
  return timings;
}

module.exports = { parseServerTiming };
