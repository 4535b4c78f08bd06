'use strict';
// The pages the guide's tests read: the README and every page of docs/.
const fs = require('node:fs');
const path = require('node:path');
const { ROOT } = require('../../lib/core/paths');

const PAGES = [
  'README.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

module.exports = { PAGES };
