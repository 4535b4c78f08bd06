'use strict';
// The catalogue of reliability scenarios, in the order `npm run reliability` runs them.
module.exports = [
  require('./router-reload'),
  require('./endpoints'),
  require('./pod-delete'),
  require('./redis-kill'),
  require('./durability'),
  require('./redis-failover'),
  require('./redis-pod-delete'),
  require('./hostile'),
  require('./exhaustion'),
  require('./soak'),
];
