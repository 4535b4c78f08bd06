'use strict';
// Redis Cluster's key slots and a node's own slot ranges, as cluster formation and the failover
// scenario read them (lib/core/redis-server.js).
const { keySlot, ownSlots } = require('../../lib/core/redis-server');

test("key slots are Redis Cluster's (CRC16 XMODEM mod 16384)", () => {
  // Values from CLUSTER KEYSLOT.
  expect(keySlot('foo')).toBe(12182);
  expect(keySlot('hello')).toBe(866);
});

test("a node's own slot ranges come from its 'myself' line of CLUSTER NODES", () => {
  const nodes = [
    'a1 127.0.0.1:7001@17001 master - 0 0 2 connected 5461-10922',
    'b2 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460 16000',
    'c3 127.0.0.1:7003@17003 slave b2 0 0 1 connected',
  ].join('\n');
  expect(ownSlots(nodes)).toEqual([
    [0, 5460],
    [16000, 16000],
  ]);
});
