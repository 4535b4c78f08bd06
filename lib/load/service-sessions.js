'use strict';
// The service's TLS sessions over a sample, read before and after it beside the router's counters:
// a passthrough cell's evidence of its sessions, whose TLS the router passes on unopened.

const round = (v) => Number(v.toFixed(1));

/**
 * The sessions between two readings { [instance]: { new, resumed } }, summed: { new, resumed,
 * reusePct } (pure); { error } where an instance's count went down (it restarted in between).
 */
function sessionsBetween(first, last) {
  const added = { new: 0, resumed: 0 };
  for (const [name, now] of Object.entries(last)) {
    const before = first[name] ?? { new: 0, resumed: 0 };
    if (now.new < before.new || now.resumed < before.resumed)
      return { error: `${name} restarted during the sample` };
    added.new += now.new - before.new;
    added.resumed += now.resumed - before.resumed;
  }
  const all = added.new + added.resumed;
  return { ...added, reusePct: all ? round((100 * added.resumed) / all) : null };
}

/**
 * `counters` (start() → { stop(), result() }, or null) with the service's TLS sessions read by
 * `read()` when the sample starts and when it stops: the result gains serviceSessions, { new,
 * resumed, reusePct } or { error }.
 */
function withServiceSessions(counters, read) {
  const settle = () =>
    read().then(
      (value) => ({ value }),
      (err) => ({ error: err.message }),
    );
  return {
    start() {
      const inner = counters ? counters.start() : null;
      const first = settle();
      let readings = null;
      return {
        async stop() {
          await inner?.stop();
          readings = [await first, await settle()];
        },
        result() {
          const base = inner ? inner.result() : {};
          const failed = readings?.find((r) => r.error);
          const serviceSessions = !readings
            ? { error: 'not read' }
            : failed
              ? { error: failed.error }
              : sessionsBetween(readings[0].value, readings[1].value);
          return { ...base, serviceSessions };
        },
      };
    },
  };
}

module.exports = { sessionsBetween, withServiceSessions };
