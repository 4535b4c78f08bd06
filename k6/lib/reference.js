'use strict';
// Red Hat's published router figures (docs/contract.md), as data. The Node runner requires the same
// reference.json, so k6 scripts and the report never disagree about them.
const REFERENCE = JSON.parse(open('./reference.json'));

module.exports = { REFERENCE };
