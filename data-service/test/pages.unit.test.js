'use strict';
// A page's size from its URL, and the fast path that serves well-formed page requests before
// Express (src/routes/pages.js): pure, no server.
const { parsePageSize, pageFastPath } = require('../src/routes/pages');

describe('page sizes', () => {
  test.each([
    ['0', 0],
    ['1', 1],
    ['1024', 1024],
    ['1k', 1024],
    ['4K', 4096],
    ['64k', 65536],
    ['1m', 1048576],
    ['1M', 1048576],
    ['1024k', 1048576],
    ['1048576', 1048576],
  ])('%s is %i bytes', (text, bytes) => expect(parsePageSize(text)).toBe(bytes));

  test.each(['', '-1', '1.5k', '01k', '1kb', '1g', 'k', '2m', '1025k', '1048577', ' 1k', '99999999', 'abc'])(
    '%j is refused with a 400 that says why',
    (text) => {
      expect(() => parsePageSize(text)).toThrow(
        expect.objectContaining({ status: 400, kind: 'invalid-page-size' }),
      );
    },
  );
});

describe('the page fast path in front of Express', () => {
  test('takes exactly the well-formed GET and HEAD page requests', () => {
    const recorded = [];
    const serve = pageFastPath((res, status, route) => recorded.push([status, route]));
    const attempt = (method, url) => {
      const res = {
        headers: {},
        setHeader: (n, v) => (res.headers[n] = v),
        end: (body) => (res.body = body),
      };
      return { taken: serve({ method, url }, res), res };
    };
    const page = attempt('GET', '/api/pages/4k');
    expect(page.taken).toBe(true);
    expect(page.res.statusCode).toBe(200);
    expect(page.res.body.length).toBe(4096);
    expect(page.res.headers['Content-Length']).toBe(4096);
    expect(attempt('HEAD', '/api/pages/1').taken).toBe(true);
    expect(recorded).toEqual([
      [200, '/api/pages/:size'],
      [200, '/api/pages/:size'],
    ]);
    for (const [method, url] of [
      ['POST', '/api/pages/1k'],
      ['GET', '/api/pages/2m'],
      ['GET', '/api/pages/1k?x=1'],
      ['GET', '/api/pages/1k/'],
      ['GET', '/API/PAGES/1k'],
      ['GET', '/api/pages/'],
      ['GET', '/api/pages/%31k'],
      ['GET', '/api/records/1k'],
    ]) {
      expect([method, url, attempt(method, url).taken]).toEqual([method, url, false]);
    }
    expect(recorded).toHaveLength(2);
  });
});
