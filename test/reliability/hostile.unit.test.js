'use strict';
// The hostile verdict (lib/reliability/hostile.js), on made-up observations.
const hostile = require('../../lib/reliability/hostile');

describe('the hostile verdict', () => {
  const observed = (over) => ({
    cases: [
      {
        name: 'slowloris-router',
        errors: {},
        load: { requests: 100, failed: 0 },
        figures: {
          attack: { connections: 40, stillOpenAtEnd: 0 },
          rss: { router: { beforeMb: 20, afterMb: 22, growthMb: 2, gone: false } },
          expected: [],
        },
        ...over,
      },
    ],
  });
  test('fails on a lost request, a process gone or grown, or a bad client served', () => {
    expect(hostile.verdict(observed({})).pass).toBe(true);
    const lost = hostile.verdict(observed({ errors: { 'HTTP 503': 1 }, load: { requests: 100, failed: 1 } }));
    expect(lost.reasons).toEqual(['slowloris-router: the steady load lost 1 of 100 requests (1 HTTP 503)']);
    const grown = observed({});
    grown.cases[0].figures.rss.router = { beforeMb: 20, afterMb: 120, growthMb: 100, gone: false };
    expect(hostile.verdict(grown).reasons[0]).toMatch(/router grew by 100 MB/);
    const served = observed({});
    served.cases[0].figures.expected = ['3 slow requests were answered 2xx: they were never complete'];
    expect(hostile.verdict(served).pass).toBe(false);
  });
});
