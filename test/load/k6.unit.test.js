'use strict';
// k6's output read for the reasons requests failed (lib/load/k6.js requestFailures).
const { requestFailures } = require('../../lib/load/k6');

test("k6's reasons for failed requests, by frequency, without the request's method and URL", () => {
  const line = (error) => `time="t" level=warning msg="Request Failed" error="${error}"\n`;
  const refused =
    'Get \\"http://127.0.0.1:9080/api/pages/1k\\": dial tcp 127.0.0.1:9080: connect: connection refused';
  const reset = 'read tcp 127.0.0.1:40000->127.0.0.1:9080: read: connection reset by peer';
  const output = line(reset) + line(refused) + 'something else\n' + line(refused);
  expect(requestFailures(output)).toEqual([
    'dial tcp 127.0.0.1:9080: connect: connection refused',
    'read tcp 127.0.0.1:40000->127.0.0.1:9080: read: connection reset by peer',
  ]);
  expect(requestFailures('no warnings here')).toEqual([]);
});
