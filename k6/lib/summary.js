'use strict';
// handleSummary helpers: the raw summary JSON to a file named by SUMMARY_PATH, and a short,
// readable line on stdout instead of a table of a hundred quantile columns.

function metric(data, name) {
  return (data.metrics[name] || {}).values || {};
}

function ms(value) {
  return value === undefined ? '-' : `${value.toFixed(2)} ms`;
}

/** A few lines: rate, errors, latency of successful responses, service time. */
function briefText(data, title, extraLines = []) {
  const reqs = metric(data, 'http_reqs');
  // The script's own verdict where it keeps one (router-matrix: wrong sizes and 3xx fail too).
  const failed = data.metrics.request_failed
    ? metric(data, 'request_failed')
    : metric(data, 'http_req_failed');
  // request_total (router-matrix) includes connection set-up; other scripts have only k6's own.
  const ok = data.metrics.request_total
    ? metric(data, 'request_total')
    : metric(data, 'http_req_duration{expected_response:true}');
  const service = metric(data, 'service_time');
  const dropped = metric(data, 'dropped_iterations');
  const lines = [
    `${title}`,
    `  requests   ${reqs.count || 0} (${(reqs.rate || 0).toFixed(1)}/s), failed ${((failed.rate || 0) * 100).toFixed(2)} %` +
      (dropped.count ? `, dropped iterations ${dropped.count}` : ''),
    `  latency    p50 ${ms(ok.med)}  p95 ${ms(ok['p(95)'])}  p99 ${ms(ok['p(99)'])}  max ${ms(ok.max)} (successful responses)`,
    `  service    p50 ${ms(service.med)}  p99 ${ms(service['p(99)'])} (Server-Timing app;dur)`,
    ...extraLines,
  ];
  return `${lines.join('\n')}\n`;
}

/** The handleSummary result: raw JSON to SUMMARY_PATH when set, brief text on stdout. */
function summaryOutputs(data, env, title, meta, extraLines) {
  const outputs = { stdout: briefText(data, title, extraLines) };
  if (env.SUMMARY_PATH) outputs[env.SUMMARY_PATH] = JSON.stringify({ meta, ...data }, null, 1);
  return outputs;
}

module.exports = { briefText, summaryOutputs };
