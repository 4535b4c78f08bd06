'use strict';
// The data-service instances' TLS sessions, from their /metrics: where passthrough's TLS ends, the
// evidence that a resumed cell resumed, which the router cannot see.
const { sumByLabel } = require('./metrics-text');
const { request, instanceUrl } = require('./client');

const SERIES = 'data_service_tls_sessions_total';

/**
 * A reader of the TLS sessions each instance set up so far: () → Promise<{ [instance name]: { new,
 * resumed } }>. It throws where an instance does not answer, naming it.
 */
function serviceSessionsReader(instances, { timeoutMs = 2000 } = {}) {
  return async () => {
    const counts = {};
    for (const instance of instances) {
      const res = await request(instanceUrl(instance, '/metrics'), { timeoutMs });
      if (res.status !== 200) throw new Error(`${instance.name}'s /metrics answered ${res.status}`);
      const counted = sumByLabel(res.text(), SERIES, 'session');
      counts[instance.name] = { new: counted.new ?? 0, resumed: counted.resumed ?? 0 };
    }
    return counts;
  };
}

module.exports = { serviceSessionsReader, SERIES };
