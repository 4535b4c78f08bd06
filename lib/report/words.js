'use strict';
// The report's explanations that report.md and report.html both print, written once.

const RESULTS_NOTE =
  'router µs/req and generator µs/req: median, with min–max across samples where they differ. Capacity per core: ' +
  '1 s ÷ the router’s median µs per request, a projection (see Cost and capacity). The generator is k6, or wrk for ' +
  'close cells whose TLS sessions are resumed (k6 cannot resume); wrk’s latency leaves out the connection set-up.';

const SESSIONS_TEXT =
  'A close cell through a TLS route either does a full handshake per connection (full: k6, which keeps no TLS ' +
  'session cache) or resumes the session of the connection before (resumed: wrk). The router’s own counters ' +
  '(SslFrontendKeyRate, SslFrontendSessionReuse_pct on its runtime API) check the claim: a resumed cell needs at ' +
  'least 90 % of sessions resumed, a full one at most 10 %. The handshakes’ share is full handshakes/s × the floor ' +
  '÷ the cores the router used, a lower bound (a real handshake costs the router more than the floor): near 100 %, ' +
  'the cell measured TLS handshakes, not HTTP. Re-encrypt’s handshakes to the service are not in it.';

const PRICE_TEXT =
  'The CPU per request of the role that ends the TLS, full minus resumed, for the same termination and page size: ' +
  'what the signature and the key exchange a resumed session skips cost, beside the floor openssl speed timed for ' +
  'them alone. The full cell is k6’s and the resumed one wrk’s: CPU per request leaves the generator out, but the ' +
  'two ran at their own rates and concurrency, so the price is an estimate.';

const COUNTERS_TEXT =
  'Read from the router’s runtime API (show info, show stat) every half second while each sample ran; medians ' +
  'across readings and samples. Through a TLS route each connection counts twice in sessions and connections: ' +
  'the frontend that reads the SNI hands it to the TLS frontend behind it over a unix socket, as the OpenShift ' +
  'router does. Queued: requests waiting in backend queues, which maxconn on the servers causes.';

const SKIPPED_TEXT = 'Cells the options planned that could not be measured against this target.';

module.exports = { RESULTS_NOTE, SESSIONS_TEXT, PRICE_TEXT, COUNTERS_TEXT, SKIPPED_TEXT };
