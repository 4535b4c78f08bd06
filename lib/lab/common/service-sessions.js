'use strict';
// The data-service instances' TLS sessions, from their /metrics: where passthrough's TLS ends, the
// evidence that a resumed cell resumed, which the router cannot see.
const { request } = require('./client');
const { sumByLabel } = require('./metrics-text');

const SERIES = 'data_service_tls_sessions_total';

/**
 * A reader of the TLS sessions every instance set up so far, summed: () → Promise<{ new, resumed }>.
 * It throws where an instance does not answer, naming it.
 */
function serviceSessionsReader(instances, { timeoutMs = 2000 } = {}) {
  return async () => {
    const total = { new: 0, resumed: 0 };
    for (const instance of instances) {
      const url = `http://${instance.host || '127.0.0.1'}:${instance.port}/metrics`;
      const res = await request(url, { timeoutMs });
      if (res.status !== 200) throw new Error(`${instance.name}'s /metrics answered ${res.status}`);
      const counted = sumByLabel(res.text(), SERIES, 'session');
      total.new += counted.new ?? 0;
      total.resumed += counted.resumed ?? 0;
    }
    return total;
  };
}

module.exports = { serviceSessionsReader, SERIES };
