'use strict';
// The guide's pages whose last lab is the lab with pods (Size your cluster), apart from the rest so
// that the worker running them runs test/node/pods-lab.test.js next, on the same lab: one start.
const { RUN_ORDER, endsOnPods, testPages } = require('./pages');

testPages(RUN_ORDER.filter(endsOnPods));
