'use strict';
// The catalogue of reliability scenarios, in the order `npm run reliability` runs them.
module.exports = [
  require('./router-reload'),
  require('./endpoints'),
  require('./redis-kill'),
  require('./durability'),
  require('./redis-failover'),
  require('./hostile'),
  require('./exhaustion'),
  require('./soak'),
];
