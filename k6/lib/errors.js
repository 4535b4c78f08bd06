'use strict';
// Failed requests counted by status, one Counter per status (errors_status_<status>): 0 is no
// HTTP response at all (refused, reset, timeout, TLS failure), 3xx counts too (the scripts never
// expect a redirect), anything not listed goes to errors_status_other. k6 allows metrics only in
// the init context, hence the fixed list. The Node runner sums them (lib/results-model/cell.js).
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
