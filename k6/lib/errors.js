'use strict';
// Failed requests counted by status (errors_status_<status>; 0: no HTTP response at all, 3xx
// counts too, the rest errors_status_other): a fixed list, since k6 allows metrics only in the
// init context. The Node runner sums them (lib/results-model/cell.js).
const { Counter } = require('k6/metrics');

const ERROR_STATUSES = [0, 301, 302, 307, 308, 400, 403, 404, 408, 413, 429, 500, 502, 503, 504];

/** { add(status, tags) }: counts one failed request under its status. */
function errorCounters() {
  const byStatus = {};
  for (const status of ERROR_STATUSES) byStatus[status] = new Counter(`errors_status_${status}`);
  const other = new Counter('errors_status_other');
  return {
    add(status, tags) {
      (byStatus[status] || other).add(1, tags);
    },
  };
}

module.exports = { ERROR_STATUSES, errorCounters };
