'use strict';
// The HTTP protocol of every response (k6's res.proto), one Counter per known protocol (the rest
// protocol_other; k6 allows metrics only in the init context), read back by these names in
// lib/results-model/reduce.js, so a cell records whether it ran over HTTP/1.1 or HTTP/2.
const PROTOCOL_METRICS = {
  'HTTP/1.0': 'protocol_http_1_0',
  'HTTP/1.1': 'protocol_http_1_1',
  'HTTP/2.0': 'protocol_http_2_0',
};
const OTHER_PROTOCOL_METRIC = 'protocol_other';

/** The protocol a counter counts ('HTTP/1.1', …, 'other'), or null for another metric. */
function protocolOfMetric(name) {
  if (name === OTHER_PROTOCOL_METRIC) return 'other';
  const found = Object.entries(PROTOCOL_METRICS).find(([, metric]) => metric === name);
  return found ? found[0] : null;
}

module.exports = { PROTOCOL_METRICS, OTHER_PROTOCOL_METRIC, protocolOfMetric };
