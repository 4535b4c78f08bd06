'use strict';
// Redis Cluster's key slots, as the failover scenario computes them (lib/reliability/redis-failover.js).
const { keySlot } = require('../../lib/reliability/redis-failover');

test("key slots are Redis Cluster's (CRC16 XMODEM mod 16384)", () => {
  // Values from CLUSTER KEYSLOT.
  expect(keySlot('foo')).toBe(12182);
  expect(keySlot('hello')).toBe(866);
});
