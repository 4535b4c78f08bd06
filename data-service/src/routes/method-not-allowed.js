'use strict';
// 405 with an Allow header, for a known path asked with a method it does not support.
const { Problem } = require('../problem');

function methodNotAllowed(methods) {
  const allowed = methods.includes('GET') ? [...methods, 'HEAD'] : methods;
  const allow = allowed.join(', ');
  return (req, _res, next) => {
    next(
      new Problem(405, 'method-not-allowed', `${req.method} is not supported here; use ${allow}`, {
        headers: { Allow: allow },
      }),
    );
  };
}

module.exports = { methodNotAllowed };
