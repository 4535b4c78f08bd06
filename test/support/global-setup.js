'use strict';
// Jest's globalSetup: the root of the run's shared labs (test/support/lab-pool.js).
module.exports = require('./lab-pool').globalSetup;
