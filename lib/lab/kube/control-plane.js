'use strict';
// The lab's control plane for LAB_ROUTER=openshift: etcd and kube-apiserver on loopback with RBAC, as
// lab daemons. Two static tokens: an administrator (.lab/kubeconfig, for kubectl and the lab) and
// the router, which RBAC limits to what the router needs (./bootstrap.js).
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
const { requireTool } = require('../../core/tools');
const { generateKeys, createCA, createServerCert, createClientCert } = require('../../core/certs');
const { nodeAddresses } = require('../node/addresses');
const { launch, assertRunning, waitUntil, logTail } = require('../common/stack');
const { waitForPort } = require('../../core/ports');
const { kubeClient } = require('./api');

/** The router's identity: the service account the ingress operator runs it as. */
const ROUTER_USER = 'system:serviceaccount:openshift-ingress:router';
const ADMIN_USER = 'router-lab-admin';

const kubeDir = (labDir) => path.join(labDir, 'kube');
const kubeconfigPath = (labDir) => path.join(labDir, 'kubeconfig');
const routerKubeconfigPath = (labDir) => path.join(kubeDir(labDir), 'router.kubeconfig');

/** A kubeconfig (JSON is YAML) for one token against the lab's API server. */
function kubeconfig({ server, caFile, user, token }) {
  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'router-lab', cluster: { server, 'certificate-authority': caFile } }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'router-lab', context: { cluster: 'router-lab', user, namespace: 'router-lab' } }],
    'current-context': 'router-lab',
  };
}

/** An API server's CA, its serving certificate for loopback and a service-account key, in `dir`. */
async function servingCredentials(dir) {
  const keys = await generateKeys(dir, [
    { name: 'kube-ca' },
    { name: 'apiserver' },
    { name: 'service-account' },
  ]);
  const ca = createCA(dir, 'kube-ca', { commonName: 'router-lab kube-apiserver CA', key: keys['kube-ca'] });
  const serving = createServerCert(dir, 'apiserver', {
    ca,
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1'],
    key: keys.apiserver,
  });
  return { ca, serving, saKey: keys['service-account'] };
}

/** servingCredentials, and a token file for the administrator and the router; returns their paths and tokens. */
async function credentials(labDir) {
  const dir = kubeDir(labDir);
  const { ca, serving, saKey } = await servingCredentials(dir);
  const tokens = {
    admin: crypto.randomBytes(24).toString('hex'),
    router: crypto.randomBytes(24).toString('hex'),
  };
  const tokenFile = path.join(dir, 'tokens.csv');
  fs.writeFileSync(
    tokenFile,
    `${tokens.admin},${ADMIN_USER},1,"system:masters"\n` +
      `${tokens.router},${ROUTER_USER},2,"system:serviceaccounts,system:serviceaccounts:openshift-ingress"\n`,
    { mode: 0o600 },
  );
  return { ca, serving, saKey, tokenFile, tokens };
}

/** etcd 3.4 refuses to start on arm64 unless told it is fine (Apple silicon, Graviton). */
const etcdEnv = () =>
  process.arch === 'arm64' ? { ...process.env, ETCD_UNSUPPORTED_ARCH: 'arm64' } : process.env;

/** etcd on loopback: one member, its data in `dataDir`, its client and peer ports. */
function etcdArgs({ dataDir, client, peer }) {
  return [
    '--name=router-lab',
    `--data-dir=${dataDir}`,
    `--listen-client-urls=http://127.0.0.1:${client}`,
    `--advertise-client-urls=http://127.0.0.1:${client}`,
    `--listen-peer-urls=http://127.0.0.1:${peer}`,
    `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
    `--initial-cluster=router-lab=http://127.0.0.1:${peer}`,
    '--logger=zap',
    '--log-level=error',
  ];
}

/**
 * kube-apiserver on loopback against that etcd. `creds`: { serving: { cert, key }, ca: { cert },
 * tokenFile, saKey }; `authorization`: RBAC for the lab, AlwaysAllow for the manifest test.
 */
function apiserverArgs(creds, { etcdClient, apiPort, serviceCidr, authorization = 'RBAC', kubelet = null }) {
  return [
    `--etcd-servers=http://127.0.0.1:${etcdClient}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${apiPort}`,
    `--tls-cert-file=${creds.serving.cert}`,
    `--tls-private-key-file=${creds.serving.key}`,
    `--client-ca-file=${creds.ca.cert}`,
    `--token-auth-file=${creds.tokenFile}`,
    `--authorization-mode=${authorization}`,
    `--service-account-key-file=${creds.saKey}`,
    `--service-account-signing-key-file=${creds.saKey}`,
    '--service-account-issuer=https://kubernetes.default.svc',
    // Room for LAB_ROUTES's Services, one per Route, in the lab's own range (../node/addresses.js).
    `--service-cluster-ip-range=${serviceCidr}`,
    // LAB_PODS=yes: logs and exec reach the kubelet at its address, with a client certificate.
    ...(kubelet
      ? [
          '--kubelet-preferred-address-types=InternalIP',
          `--kubelet-client-certificate=${kubelet.cert}`,
          `--kubelet-client-key=${kubelet.key}`,
        ]
      : []),
    '--endpoint-reconciler-type=none',
    // No ResourceQuota exists in the lab, and its admission held the first write of a custom
    // resource 2 s (measured: 2,006 ms with it, 5 ms without) on every lab:up.
    '--disable-admission-plugins=ResourceQuota',
    '--enable-priority-and-fairness=false',
    '--profiling=false',
    '--v=0',
  ];
}

/**
 * The readiness checks that wait for the API server's own bootstrap writes (the default roles and
 * priority classes, about 1.5 s of a 4 s start here). The administrator is in system:masters, which
 * the API server authorizes without RBAC, so the lab's CRDs and objects go in meanwhile.
 */
const BOOTSTRAP_CHECKS = [
  'poststarthook/rbac/bootstrap-roles',
  'poststarthook/scheduling/bootstrap-system-priority-classes',
];

/** Waits until `admin` reads /readyz as ready, apart from the checks in `exclude`. */
function waitReady(labDir, apiserver, admin, { exclude = [], timeoutMs, signal }) {
  const query = exclude.map((check) => `exclude=${encodeURIComponent(check)}`).join('&');
  return waitUntil(
    async () => {
      assertRunning(labDir, apiserver);
      await admin.call('GET', `/readyz${query ? `?${query}` : ''}`, { timeoutMs: 2000 });
      return true;
    },
    {
      timeoutMs,
      what: exclude.length
        ? 'kube-apiserver serving (its bootstrap roles may still be written)'
        : 'kube-apiserver ready',
      signal,
      diagnose: () => logTail(labDir, 'kube-apiserver'),
    },
  );
}

/**
 * Starts etcd and kube-apiserver on `ports` ({ etcdClient, etcdPeer, api }), waits until the API
 * serves the administrator, writes the two kubeconfigs. Resolves { server, caFile, kubeconfig,
 * routerKubeconfig, admin (a client), ready }: await `ready()` before anything that is not the
 * administrator (the router, the node) uses the API, as it needs the bootstrap roles.
 */
async function startControlPlane(labDir, { ports, signal, pods = false, timeoutMs = 120000 }) {
  const creds = await credentials(labDir);
  // LAB_PODS=yes: the API server's identity towards the kubelet (logs, exec).
  const kubelet = pods
    ? createClientCert(kubeDir(labDir), 'apiserver-kubelet-client', {
        ca: creds.ca,
        commonName: 'kube-apiserver-kubelet-client',
      })
    : null;
  const { serviceCidr } = nodeAddresses(labDir);
  fs.rmSync(path.join(kubeDir(labDir), 'etcd'), { recursive: true, force: true });
  const etcd = launch(labDir, {
    name: 'etcd',
    role: 'apiserver',
    file: requireTool('etcd'),
    args: etcdArgs({
      dataDir: path.join(kubeDir(labDir), 'etcd'),
      client: ports.etcdClient,
      peer: ports.etcdPeer,
    }),
    env: etcdEnv(),
    match: 'etcd',
  });
  await waitUntil(
    async () => {
      assertRunning(labDir, etcd);
      await waitForPort(ports.etcdClient, { timeoutMs: 500, what: 'etcd' });
      return true;
    },
    { timeoutMs: 30000, what: `etcd listening on 127.0.0.1:${ports.etcdClient}`, signal },
  );
  const apiserver = launch(labDir, {
    name: 'kube-apiserver',
    role: 'apiserver',
    file: requireTool('kube-apiserver'),
    args: apiserverArgs(creds, { etcdClient: ports.etcdClient, apiPort: ports.api, serviceCidr, kubelet }),
    match: 'kube-apiserver',
  });
  const server = `https://127.0.0.1:${ports.api}`;
  const ca = fs.readFileSync(creds.ca.cert);
  const admin = kubeClient({ server, ca, token: creds.tokens.admin });
  await waitReady(labDir, apiserver, admin, { exclude: BOOTSTRAP_CHECKS, timeoutMs, signal });
  const write = (file, user, token) =>
    fs.writeFileSync(
      file,
      `${JSON.stringify(kubeconfig({ server, caFile: creds.ca.cert, user, token }), null, 2)}\n`,
      {
        mode: 0o600,
      },
    );
  write(kubeconfigPath(labDir), ADMIN_USER, creds.tokens.admin);
  write(routerKubeconfigPath(labDir), ROUTER_USER, creds.tokens.router);
  return {
    server,
    caFile: creds.ca.cert,
    ca: creds.ca,
    saKey: creds.saKey,
    kubeconfig: kubeconfigPath(labDir),
    routerKubeconfig: routerKubeconfigPath(labDir),
    admin,
    ready: () => waitReady(labDir, apiserver, admin, { timeoutMs, signal }),
  };
}

/** An administrator's client of the running lab's API server, from its kubeconfig. */
function adminClient(labDir) {
  const config = JSON.parse(fs.readFileSync(kubeconfigPath(labDir), 'utf8'));
  return kubeClient({
    server: config.clusters[0].cluster.server,
    ca: fs.readFileSync(config.clusters[0].cluster['certificate-authority']),
    token: config.users[0].user.token,
  });
}

module.exports = {
  startControlPlane,
  adminClient,
  kubeconfigPath,
  servingCredentials,
  etcdArgs,
  etcdEnv,
  apiserverArgs,
  ROUTER_USER,
};
