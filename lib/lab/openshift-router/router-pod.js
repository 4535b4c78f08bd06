'use strict';
// LAB_PODS=yes: openshift-router as a pod of the lab's node, as the ingress operator runs it:
// `router-default-…` in openshift-ingress, container `router`, host network. So the kubelet's
// cAdvisor reports its CPU under the names a cluster's Prometheus queries (the openshift profile).
const { TOOLS_DIR } = require('../../core/paths');
const { waitUntil, logTail } = require('../common/stack');
const { recordProcess, logFile } = require('../common/pids');
const { containerProcess } = require('../node/cgroups');
const { routerPaths } = require('../haproxy/router-config');
const { routerBin } = require('../../setup/openshift-router-build');
const { workDir } = require('./work-dir');

const { ROUTER_NAMESPACE: NAMESPACE, APPS_DOMAIN } = require('../common/routes');
/** The container states that do not pass by themselves. */
const CANNOT_START = ['ErrImageNeverPull', 'CreateContainerConfigError', 'CreateContainerError'];
/** The IngressController the lab's router stands for: OpenShift's first, `default`. */
const INGRESS_CONTROLLER = 'default';
/** The pod's name: its IngressController's, as the profile's `router-<name>-.+` expects. */
const POD_NAME = `router-${INGRESS_CONTROLLER}-lab`;
/**
 * The router's name and host in Route status, as the ingress operator sets them
 * (ROUTER_SERVICE_NAME, ROUTER_CANONICAL_HOSTNAME) from its IngressController's name.
 */
const ROUTER_IDENTITY = {
  routerName: INGRESS_CONTROLLER,
  canonicalHostname: `router-${INGRESS_CONTROLLER}.${APPS_DOMAIN}`,
};

/**
 * The Pod: the router's binary and HAProxy from the machine, mounted where the image has them, its
 * working directory at /var/lib/haproxy, the lab's directory (certificates, kubeconfig) and
 * .tools at their own paths. Its log goes to the lab's router log, as the process's does. No
 * restarts: lab:down stops it like the process.
 */
function routerPod(lab, configured, env) {
  const hostPath = (name, from, to, type = 'Directory') => ({
    volume: { name, hostPath: { path: from, type } },
    mount: { name, mountPath: to },
  });
  const mounts = [
    hostPath('work', workDir(lab.labDir), '/var/lib/haproxy'),
    hostPath('run', routerPaths(lab.labDir).runDir, '/var/lib/haproxy/run'),
    hostPath('haproxy', lab.haproxy.path, '/usr/sbin/haproxy', 'File'),
    hostPath('lab', lab.labDir, lab.labDir),
    hostPath('tools', TOOLS_DIR, TOOLS_DIR),
  ];
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: POD_NAME,
      namespace: NAMESPACE,
      labels: { 'ingresscontroller.operator.openshift.io/deployment-ingresscontroller': 'default' },
    },
    spec: {
      hostNetwork: true,
      restartPolicy: 'Never',
      terminationGracePeriodSeconds: 5,
      containers: [
        {
          name: 'router',
          image: lab.node.baseImage,
          imagePullPolicy: 'Never',
          // Pinned as the process would be (LAB_CPUS): taskset is in the base (util-linux).
          command: [
            'sh',
            '-c',
            lab.cpus?.router ? 'exec taskset -c "$2" "$0" --v=2 >>"$1" 2>&1' : 'exec "$0" --v=2 >>"$1" 2>&1',
            routerBin(configured.release),
            logFile(lab.labDir, 'router'),
            String(lab.cpus?.router ?? ''),
          ],
          workingDir: '/var/lib/haproxy/conf',
          env: Object.entries(env).map(([name, value]) => ({ name, value })),
          volumeMounts: mounts.map((m) => m.mount),
        },
      ],
      volumes: mounts.map((m) => m.volume),
    },
  };
}

/** Creates the pod and records its openshift-router (the host's pid) as the lab's router. */
async function startRouterPod(lab, configured, env) {
  const { kube, labDir, signal } = lab;
  await kube.admin.post(`/api/v1/namespaces/${NAMESPACE}/pods`, routerPod(lab, configured, env));
  let pid = null;
  await waitUntil(
    async () => {
      const pod = await kube.admin.get(`/api/v1/namespaces/${NAMESPACE}/pods/${POD_NAME}`);
      const status = pod.status.containerStatuses?.[0];
      const { terminated, waiting } = status?.state || {};
      // Exited, or a container that cannot start (its image, its mounts): no point in waiting.
      if (terminated || CANNOT_START.includes(waiting?.reason)) {
        const why = terminated
          ? `exited (${terminated.reason})`
          : `cannot start: ${waiting.reason}: ${waiting.message}`;
        const err = new Error(`the router's pod ${why}${logTail(labDir, 'router')}`);
        err.fatal = true;
        throw err;
      }
      const id = (status?.containerID || '').replace(/^\w+:\/\//, '');
      pid = status?.state?.running ? containerProcess(lab.node.addresses.cgroupRoot, id) : null;
      return pid;
    },
    {
      timeoutMs: 60000,
      what: `the router's pod ${POD_NAME} running`,
      signal,
      diagnose: () => logTail(labDir, 'router'),
    },
  );
  return recordProcess(labDir, 'router', pid, { match: 'openshift-router', role: 'router' });
}

module.exports = { routerPod, startRouterPod, POD_NAME, ROUTER_IDENTITY };
