'use strict';
// The report's explanations that report.md and report.html both print, written once.
const { THRESHOLDS } = require('../results-model/verdicts');
const { AA_BOUND } = require('../results-model/generator-efficiency');

const INTRO_TEXT =
  'Latency is for successful responses, from the merged distribution of all samples, connection set-up included. ' +
  'Cost is µs of CPU per successful request: a role’s CPU seconds over a sample ÷ its successful requests.';

const LIMITS_TITLE = 'What limited each cell: CPU used per role (average cores)';

const LIMITS_TEXT =
  'Cores: each role’s average over the cell’s samples; other work: the host’s busy cores that no role of the test ' +
  `used. A role is the limit when it used ${THRESHOLDS.cpuNearFull * 100} % or more of the cores it may use, or its own ` +
  'counters show it (the evidence column). With no role at its limit: other work took ' +
  `${THRESHOLDS.otherWorkShare * 100} % of the host’s cores or more while it was ${THRESHOLDS.hostBusy * 100} % busy or more; or the roles shared a host that busy; or ` +
  'the host had idle cores and the offered load set the figure.';

const TIME_TEXT =
  '“waiting” is time to first byte after the request was sent; “service” is the time the data service itself ' +
  'reported (Server-Timing: app); the difference is the router and the network.';

const COMPARISON_TEXT =
  'Absolute figures from other hardware are not comparable one to one. Each termination is shown as a ratio to the ' +
  'http row measured under the same conditions; “→ req/s here” is the reference ratio applied to this run’s http ' +
  'figure: what this machine would do if it behaved like the reference.';

const RATIO_TEXT =
  'the capacity-per-core ratio always is, since it comes from the router’s own CPU per request whoever ran out of ' +
  'CPU first. The req/s ratio is the router’s only where the router was the limit in both cells; ⚠ marks one that ' +
  'is not';

/** How many of the run's cells a list is: "3 cell(s)", or "all 16 cells". */
const countText = (cells, results) =>
  cells.length === results.cells.length && cells.length > 1
    ? `all ${cells.length} cells`
    : `${cells.length} cell(s)`;

const RESULTS_NOTE =
  'router µs/req and generator µs/req: median, with min–max across samples where they differ. Capacity per core: ' +
  '1 s ÷ the router’s median µs per request, a projection (see Cost and capacity). The generator is k6, or wrk for ' +
  'close cells whose TLS sessions are resumed (k6 cannot resume), haload where wrk cannot reach (passthrough in the ' +
  'lab); wrk’s latency leaves out the connection set-up, and haload prints means only (no percentiles).';

const COST_CURVE_TEXT =
  'haload drove each keep-alive cell flat out, then held it to 1/4, 1/2 and 3/4 of that rate and to the sizing’s ' +
  'target rate (where a generator that cannot offer it, k6 on 2 cores, does not say what the router does there); the router’s CPU at ' +
  'each rate, fitted as fixed cores + µs per request × rate (least squares; the interval is the slope’s 95 %). Fixed ' +
  'work per second spreads over more requests at a higher rate, so a cost taken at a low rate overstates one at a ' +
  'target’s: npm run sizing uses the curve at the target where there is one.';

const EFFICIENCY_TEXT =
  `Each generator's own CPU per request, and the router's while it drove the cell, over as many runs as the ` +
  `cell's samples. The router's figure should not depend on the generator: runs of one binary agree within ` +
  `±${AA_BOUND * 100} %, so the shift agrees when its 95 % interval lies inside that bound, depends when it ` +
  'lies beyond it (with why, from the runs), and is undecided in between; an interval takes 4 runs a side (--samples 4).';

const PROTOCOL_TEXT =
  'A cell through a TLS route forces its HTTP version: h1 (HTTP/1.1; k6 with its HTTP/2 client off) or h2 ' +
  '(the router must offer h2 over ALPN). The claim holds when at least 99 % of the responses its client read were ' +
  'of that version, and of the requests the router received where it counts them (its h1 and h2 stream counters; ' +
  'not on passthrough). On re-encrypt the router speaks to the service what the service answers over ALPN, and ' +
  'its streams to the service say which version it spoke.';

const SESSIONS_TEXT =
  'A close cell through a TLS route either does a full handshake per connection (full: k6, which keeps no TLS ' +
  'session cache) or resumes the session of the connection before (resumed: wrk). The router’s own counters ' +
  '(the new and the resumed TLS sessions on its Route frontends, counted over each sample: HAProxy’s ssl_sess ' +
  'and ssl_reused_sess on its runtime API, Envoy’s ssl.handshake and ssl.session_reused on its admin) check ' +
  'the claim; passthrough’s TLS ends at the data service, whose instances count their new and resumed sessions ' +
  '(/metrics, read before and after each sample in the lab). A resumed cell needs at ' +
  `least ${THRESHOLDS.resumedMinReusePct} % of sessions resumed, a full one at most ${THRESHOLDS.fullMaxReusePct} %. The handshakes’ share is full handshakes/s × the floor ` +
  '÷ the cores the router used, a lower bound (a real handshake costs the router more than the floor): near 100 %, ' +
  'the cell measured TLS handshakes, not HTTP. Re-encrypt’s handshakes to the service are not in it.';

const PRICE_TEXT =
  'The CPU per request of the role that ends the TLS, full minus resumed, for the same termination and page size: ' +
  'what resuming saves (the signature and the key exchange it skips), beside the floor openssl speed timed for ' +
  'them alone. Beyond a plain close (the http close cell: a connection per request, no TLS): what a full handshake ' +
  'costs, and what a resumed session costs of its own. The cells’ generators differ (k6 never resumes, wrk always ' +
  'does) and ran at their own rates: estimates. Where haload drove all three runs (--cross-check), a second row ' +
  'gives its figures, one tool for all.';

const CLUSTER_TEXT =
  'Read from the cluster’s Prometheus over each sample’s window (docs/openshift.md): the router’s metrics for the ' +
  'cell’s Route, medians across samples. The router’s and the data service’s CPU in the tables above come from ' +
  'the same place; what could not be read is named, and a cell without the router’s CPU has no verdict.';

const COUNTERS_TEXT =
  'Read from the router’s runtime API (show info, show stat) every half second while each sample ran; medians ' +
  'across readings and samples. Through a TLS route each connection counts twice in sessions and connections: ' +
  'the frontend that reads the SNI hands it to the TLS frontend behind it over a unix socket, as the OpenShift ' +
  'router does. Queued: requests waiting in backend queues, which maxconn on the servers causes.';

const SKIPPED_TEXT = 'Cells the options planned that could not be measured against this target.';

module.exports = {
  INTRO_TEXT,
  LIMITS_TITLE,
  LIMITS_TEXT,
  RESULTS_NOTE,
  SESSIONS_TEXT,
  PROTOCOL_TEXT,
  COST_CURVE_TEXT,
  EFFICIENCY_TEXT,
  PRICE_TEXT,
  COUNTERS_TEXT,
  CLUSTER_TEXT,
  SKIPPED_TEXT,
  TIME_TEXT,
  COMPARISON_TEXT,
  RATIO_TEXT,
  countText,
};
