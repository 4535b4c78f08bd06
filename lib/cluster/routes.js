'use strict';
// Route URLs as the k6 scripts and the matrix want them (URL_HTTP, URL_EDGE, ...).
const cells = require('../../k6/lib/cells');

/** [{ name, termination, url, envName }] for the lab's Routes, from `oc get routes -o json` items. */
function routeUrls(routes) {
  return routes
    .filter((r) => r.metadata.name.startsWith(`${cells.SERVICE_NAME}-`))
    .map((r) => {
      const termination = cells.routeTermination(r);
      const admitted = ((r.status && r.status.ingress) || []).find((i) =>
        (i.conditions || []).some((c) => c.type === 'Admitted' && c.status === 'True'),
      );
      const host = (admitted && admitted.host) || r.spec.host;
      return {
        name: r.metadata.name,
        termination,
        url: host ? cells.routeUrl(termination, host) : null,
        envName: cells.urlVariable(termination),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

function printNextSteps(urls, { namespace, appsDomain }) {
  console.log('\nRoutes:');
  for (const u of urls) console.log(`  ${u.termination.padEnd(12)} ${u.url || '(not admitted yet)'}`);
  const env = urls.filter((u) => u.url).map((u) => `${u.envName}=${u.url}`);
  console.log('\nSmoke test and the router matrix from this workstation:');
  console.log(`  k6 run ${env.map((e) => `-e ${e}`).join(' ')} k6/smoke.js`);
  if (appsDomain) {
    console.log(`  npm run matrix -- --target cluster --apps-domain ${appsDomain} --namespace ${namespace}`);
  } else {
    console.log(`  ${env.join(' ')} npm run matrix -- --target cluster`);
  }
  console.log('\nFrom inside the cluster (k6-operator): node bin/cluster-k6.js --help');
}

module.exports = { routeUrls, printNextSteps };
