'use strict';
// The router-reload verdict (lib/reliability/router-reload.js), on made-up observations.
const routerReload = require('../../lib/reliability/router-reload');

describe('the router-reload verdict', () => {
  const observed = (errors, failed) => ({
    cases: [
      { name: 'edge:keepalive', errors, load: { requests: 100, failed, droppedIterations: 0 }, figures: {} },
    ],
  });
  test('passes with no failed request and names every failure otherwise', () => {
    expect(routerReload.verdict(observed({}, 0))).toMatchObject({ pass: true, reasons: [] });
    const v = routerReload.verdict(observed({ 'no response (refused, reset, timeout)': 2 }, 2));
    expect(v.pass).toBe(false);
    expect(v.reasons[0]).toMatch(/edge:keepalive: 2 of 100 requests failed \(2 no response/);
  });
});
