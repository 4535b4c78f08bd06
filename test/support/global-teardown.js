'use strict';
// Jest's globalTeardown: every shared lab of the run down (test/support/lab-pool.js).
module.exports = require('./lab-pool').globalTeardown;
