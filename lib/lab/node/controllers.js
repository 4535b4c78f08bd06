'use strict';
// What a cluster runs beside the kubelet, each a lab process on the host: the controllers, the
// scheduler, kube-proxy (ClusterIPs, in an nftables table of its own) and CoreDNS (Services,
// StatefulSet pods and the apps domain by name, on the bridge's address).
const fs = require('node:fs');
const { requireTool } = require('../../core/tools');
const { freePort } = require('../../core/ports');
const { launch } = require('../common/stack');
const { APPS_DOMAIN } = require('../common/routes');
const { nodePaths } = require('./paths');

/** The controller manager: every default controller, no leader election, no cloud. */
async function controllerManagerArgs({ kube }) {
  return [
    `--kubeconfig=${kube.kubeconfig}`,
    `--service-account-private-key-file=${kube.saKey}`,
    `--root-ca-file=${kube.caFile}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${await freePort()}`,
    '--authentication-skip-lookup',
    '--v=1',
  ];
}

async function schedulerArgs({ kube }) {
  return [
    `--kubeconfig=${kube.kubeconfig}`,
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${await freePort()}`,
    '--authentication-skip-lookup',
    '--v=1',
  ];
}

/**
 * kube-proxy in nftables mode: its rules in tables of its own (lab:down deletes them). It masquerades
 * every ClusterIP connection, so a reply from a pod on the same bridge goes back through the host,
 * whatever the machine's br_netfilter settings; it changes no conntrack sysctl.
 */
async function proxyArgs({ kube, addresses }) {
  return [
    `--kubeconfig=${kube.kubeconfig}`,
    '--proxy-mode=nftables',
    `--hostname-override=${addresses.nodeName}`,
    `--cluster-cidr=${addresses.podCidr}`,
    '--masquerade-all',
    `--nodeport-addresses=${addresses.gateway}/32`,
    '--conntrack-max-per-core=0',
    '--conntrack-tcp-timeout-established=0',
    '--conntrack-tcp-timeout-close-wait=0',
    `--metrics-bind-address=127.0.0.1:${await freePort()}`,
    `--healthz-bind-address=127.0.0.1:${await freePort()}`,
    '--v=1',
  ];
}

/**
 * CoreDNS's configuration: the cluster's zone from the API; every name of the apps domain to the
 * router's Service (./router-service.js), IPv4 only; the rest from the machine's resolver.
 */
function corefile({ kube, addresses }) {
  return `.:53 {
    bind ${addresses.gateway}
    errors
    kubernetes ${addresses.clusterDomain} in-addr.arpa ip6.arpa {
        kubeconfig ${kube.kubeconfig} router-lab
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
    }
    template IN A ${APPS_DOMAIN} {
        answer "{{ .Name }} 60 IN A ${addresses.routerServiceIp}"
    }
    template IN AAAA ${APPS_DOMAIN} {
        rcode NOERROR
    }
    forward . /etc/resolv.conf
    cache 30
}
`;
}

/** Starts the four; resolves their records. */
async function startControllers(labDir, { kube, addresses }) {
  const p = nodePaths(labDir);
  fs.writeFileSync(p.corefile, corefile({ kube, addresses }));
  const daemons = [
    ['kube-controller-manager', await controllerManagerArgs({ kube })],
    ['kube-scheduler', await schedulerArgs({ kube })],
    ['kube-proxy', await proxyArgs({ kube, addresses })],
    ['coredns', ['-conf', p.corefile]],
  ];
  return daemons.map(([name, args]) =>
    launch(labDir, { name, role: 'node', file: requireTool(name), args, match: name }),
  );
}

module.exports = { startControllers, corefile, proxyArgs };
