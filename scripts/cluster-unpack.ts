// The real cluster's stand-in for a kubelet, for OLM v0's bundle unpack pods only. OLM's catalog
// operator unpacks a bundle given by image in a Job (bundle_unpacker.go of the OLM that
// cluster/olm.version pins): init container `util` copies `cpb` into a shared folder, init
// container `pull` runs the bundle image and copies its manifests/ and metadata/annotations.yaml
// into the `bundle` folder with it, and container `extract` runs `opm alpha bundle extract -m
// /bundle/ -n NS -c CONFIGMAP -z`, which writes the files into the ConfigMap OLM made, as the pod's
// service account. kwok runs no containers (and its stages leave these pods to us:
// scripts/cluster-kwok-stages.ts), so this does the same steps with the real programs: the
// registry program pulls the image's files as a container runtime would (`registry pull`), the
// files cpb copies are copied, and the real opm runs the container's own command with a token of
// the pod's service account bound to the pod, as a kubelet mounts one. It then reports the pod as a
// kubelet would: Succeeded, or Failed with the container's exit code and its last output (the
// container's TerminationMessageFallbackToLogsOnError); a pull that fails keeps the pod Pending with
// ErrImagePull, then ImagePullBackOff, retried with a kubelet's back-off, until the Job's deadline
// ends it. The Job controller and OLM read that as they would on any cluster. Nothing of OLM is
// emulated here: which Job, which ConfigMap, what is checked and when is all OLM's.
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KubeClient } from '../lib/k8s/client';
import { resolveClusterAccess } from '../lib/k8s/cluster-config';
import { POD_TYPE } from '../lib/k8s/core-kinds';
import { isKubeError } from '../lib/k8s/errors';
import { startInformer } from '../lib/k8s/informer';
import { UNPACK_POD_LABEL } from './cluster-kwok-stages';

const execFileAsync = promisify(execFile);

type Container = {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  env?: { name: string; value?: string }[];
  volumeMounts?: { name: string; mountPath: string }[];
};
type ContainerState =
  | { waiting: { reason: string; message?: string } }
  | { running: { startedAt: string } }
  | {
      terminated: { exitCode: number; reason: string; message?: string; startedAt: string; finishedAt: string };
    };
export type UnpackPod = {
  metadata: { name: string; namespace: string; uid: string; deletionTimestamp?: string };
  spec: {
    nodeName?: string;
    serviceAccountName?: string;
    initContainers?: Container[];
    containers: Container[];
  };
  status?: { phase?: string; hostIP?: string };
};

export interface UnpackRunnerOptions {
  kubeconfig: string;
  /** The node these pods are bound to (kwok's), and the address it reports. */
  node: string;
  nodeIP: string;
  /** The registry program (`registry pull`) and the CA its registry's certificate is signed by. */
  registry: string;
  registryCa: string;
  /** The opm binary that stands for the opm image OLM names. */
  opm: string;
  /** Where each pod's volumes are made (removed once the pod is done). */
  workDir: string;
  log: (line: string) => void;
}

// A kubelet's image pull back-off: 10 s doubling to 5 min.
const BACKOFF_MS = [10_000, 20_000, 40_000, 80_000, 160_000, 300_000];
// What a kubelet keeps of a failed container's log as its termination message (80 lines, 2 KiB).
const MESSAGE_LINES = 80;
const MESSAGE_BYTES = 2048;

const now = () => new Date().toISOString();

function lastOutput(text: string): string {
  const lines = text.trimEnd().split('\n').slice(-MESSAGE_LINES).join('\n');
  return Buffer.byteLength(lines) > MESSAGE_BYTES ? Buffer.from(lines).subarray(-MESSAGE_BYTES).toString() : lines;
}

/** A container's status as a kubelet writes it. */
function status(c: Container, state: ContainerState, ready = false) {
  return { name: c.name, image: c.image, imageID: '', ready, restartCount: 0, started: 'running' in state, state };
}

/** Starts watching unpack pods bound to the node; answers a function that stops it. */
export function startUnpackRunner(opts: UnpackRunnerOptions): () => void {
  const client = new KubeClient(resolveClusterAccess({ kubeconfig: opts.kubeconfig }, {}).shared!);
  const seen = new Set<string>();
  const gone = new Set<string>();
  mkdirSync(opts.workDir, { recursive: true });
  const informer = startInformer<UnpackPod & { metadata: { name: string } }>(client, POD_TYPE, {
    labelSelector: UNPACK_POD_LABEL,
    fieldSelector: `spec.nodeName=${opts.node}`,
    onEvent: ({ type, object: pod }) => {
      const uid = pod.metadata.uid;
      if (type === 'DELETED' || pod.metadata.deletionTimestamp) {
        gone.add(uid);
        return;
      }
      // A pod is run once; a finished one (this run's or an earlier cluster's) is left as it is.
      if (seen.has(uid) || ['Succeeded', 'Failed'].includes(pod.status?.phase ?? '')) return;
      seen.add(uid);
      void runPod(client, opts, pod, () => gone.has(uid)).catch((err: unknown) =>
        opts.log(`unpack ${pod.metadata.namespace}/${pod.metadata.name}: ${(err as Error).message}`),
      );
    },
  });
  return () => informer.stop();
}

async function runPod(client: KubeClient, opts: UnpackRunnerOptions, pod: UnpackPod, deleted: () => boolean) {
  const { name, namespace } = pod.metadata;
  const inits = pod.spec.initContainers ?? [];
  const util = inits.find((c) => c.name === 'util');
  const pull = inits.find((c) => c.name === 'pull');
  const extract = pod.spec.containers.find((c) => c.name === 'extract');
  const startedAt = now();
  const put = async (s: Record<string, unknown>) => {
    if (deleted()) return false;
    try {
      await client.patch(POD_TYPE, name, { status: s }, { namespace, subresource: 'status' });
      return true;
    } catch (err) {
      if (isKubeError(err, 404)) return false;
      throw err;
    }
  };
  const base = { hostIP: opts.nodeIP, hostIPs: [{ ip: opts.nodeIP }], startTime: startedAt };
  const waiting = (reason: string, message?: string) => ({ waiting: { reason, ...(message ? { message } : {}) } });
  const done = (exitCode: number, message?: string): ContainerState => ({
    terminated: {
      exitCode,
      reason: exitCode === 0 ? 'Completed' : 'Error',
      ...(message ? { message } : {}),
      startedAt,
      finishedAt: now(),
    },
  });
  const conditions = (initialized: boolean, ready: boolean, reason?: string) => [
    { type: 'PodScheduled', status: 'True' },
    { type: 'Initialized', status: initialized ? 'True' : 'False', ...(initialized ? {} : { reason }) },
    { type: 'ContainersReady', status: ready ? 'True' : 'False', ...(ready ? {} : { reason }) },
    { type: 'Ready', status: ready ? 'True' : 'False', ...(ready ? {} : { reason }) },
  ];
  // Only the pod OLM's unpacker makes is known; anything else with its label is failed, saying why.
  const command = extract?.command ?? [];
  if (!util || !pull || !extract || command[0] !== 'opm') {
    await put({
      ...base,
      phase: 'Failed',
      reason: 'UnknownUnpackPod',
      message: 'the real cluster runs only the unpack pods OLM v0.38.0 makes (util, pull, extract running opm)',
    });
    return;
  }
  const pending = (pullState: ContainerState) =>
    put({
      ...base,
      phase: 'Pending',
      conditions: conditions(false, false, 'ContainersNotInitialized'),
      initContainerStatuses: [status(util, done(0)), status(pull, pullState)],
      containerStatuses: [status(extract, waiting('PodInitializing'))],
    });
  if (!(await pending(waiting('PodInitializing')))) return;

  const dir = mkdtempSync(join(opts.workDir, `${namespace}-${name}-`));
  try {
    // The `pull` container: its image's files, then what cpb copies of them into the bundle folder.
    const rootfs = join(dir, 'rootfs');
    for (let attempt = 0; ; attempt++) {
      rmSync(rootfs, { recursive: true, force: true });
      try {
        await execFileAsync(opts.registry, ['pull', '--ca', opts.registryCa, pull.image, rootfs]);
        break;
      } catch (err) {
        const reason = String((err as { stderr?: string }).stderr ?? (err as Error).message).trim();
        const message = `failed to pull image "${pull.image}": ${reason}`;
        if (!(await pending(waiting('ErrImagePull', message)))) return;
        opts.log(`unpack ${namespace}/${name}: ${message}`);
        const wait = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)]!;
        await new Promise((r) => setTimeout(r, 1000));
        if (
          !(await pending(
            waiting('ImagePullBackOff', `Back-off pulling image "${pull.image}": ErrImagePull: ${reason}`),
          ))
        )
          return;
        await new Promise((r) => setTimeout(r, wait));
        if (deleted()) return;
      }
    }
    const bundle = join(dir, 'bundle');
    const cpb = copyBundle(rootfs, bundle);
    if (cpb) {
      await put({
        ...base,
        phase: 'Failed',
        conditions: conditions(false, false, 'PodFailed'),
        initContainerStatuses: [status(util, done(0)), status(pull, done(1, cpb))],
        containerStatuses: [status(extract, waiting('PodInitializing'))],
      });
      return;
    }
    const running = { running: { startedAt: now() } };
    if (
      !(await put({
        ...base,
        phase: 'Running',
        conditions: conditions(true, true),
        initContainerStatuses: [status(util, done(0)), status(pull, done(0))],
        containerStatuses: [status(extract, running, true)],
      }))
    )
      return;

    // The `extract` container: its own command, its volume at the folder made for it, and the
    // service account's token in a kubeconfig (a kubelet mounts it where in-cluster config reads it).
    const mounts = new Map((extract.volumeMounts ?? []).map((m) => [m.mountPath.replace(/\/$/, ''), m.name]));
    const local = (arg: string) => {
      for (const [path, volume] of mounts)
        if (volume === 'bundle' && (arg === path || arg.startsWith(`${path}/`))) return bundle + arg.slice(path.length);
      return arg;
    };
    const kubeconfig = await serviceAccountKubeconfig(opts, pod, dir);
    const env: Record<string, string | undefined> = { PATH: process.env.PATH, HOME: dir, KUBECONFIG: kubeconfig };
    for (const e of extract.env ?? []) if (e.value !== undefined) env[e.name] = e.value;
    const { code, output } = await runProgram(opts.opm, [...command.slice(1), ...(extract.args ?? [])].map(local), env);
    opts.log(`unpack ${namespace}/${name}: opm exited ${code}`);
    await put({
      ...base,
      phase: code === 0 ? 'Succeeded' : 'Failed',
      conditions: conditions(true, false, 'PodCompleted'),
      initContainerStatuses: [status(util, done(0)), status(pull, done(0))],
      containerStatuses: [status(extract, done(code, code === 0 ? undefined : lastOutput(output)))],
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What `cpb /bundle` copies from an image laid out as registry+v1 bundles are: metadata/annotations.yaml
 * and manifests/. Answers the error cpb would end with when the image has neither.
 */
function copyBundle(rootfs: string, bundle: string): string | undefined {
  const annotations = join(rootfs, 'metadata', 'annotations.yaml');
  if (!existsSync(annotations)) return 'error finding metadata directory: no metadata/annotations.yaml in the image';
  mkdirSync(join(bundle, 'metadata'), { recursive: true });
  cpSync(annotations, join(bundle, 'metadata', 'annotations.yaml'));
  mkdirSync(join(bundle, 'manifests'), { recursive: true });
  if (existsSync(join(rootfs, 'manifests')))
    cpSync(join(rootfs, 'manifests'), join(bundle, 'manifests'), { recursive: true });
  return undefined;
}

/** A kubeconfig holding a token of the pod's service account, bound to the pod, as a kubelet projects one. */
async function serviceAccountKubeconfig(opts: UnpackRunnerOptions, pod: UnpackPod, dir: string): Promise<string> {
  const { name, namespace, uid } = pod.metadata;
  const sa = pod.spec.serviceAccountName || 'default';
  const kc = ['--kubeconfig', opts.kubeconfig];
  const { stdout: token } = await execFileAsync('kubectl', [
    ...kc,
    'create',
    'token',
    sa,
    '-n',
    namespace,
    '--bound-object-kind',
    'Pod',
    '--bound-object-name',
    name,
    '--bound-object-uid',
    uid,
    '--duration',
    '1h',
  ]);
  const { stdout: cluster } = await execFileAsync('kubectl', [
    ...kc,
    'config',
    'view',
    '--raw',
    '--minify',
    '-o',
    'jsonpath={.clusters[0].cluster.server} {.clusters[0].cluster.certificate-authority-data}',
  ]);
  const [server, ca] = cluster.trim().split(' ');
  const file = join(dir, 'kubeconfig');
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: c, cluster: {server: "${server}", certificate-authority-data: ${ca}}}]`,
      `users: [{name: ${sa}, user: {token: ${token.trim()}}}]`,
      `contexts: [{name: c, context: {cluster: c, user: ${sa}, namespace: ${namespace}}}]`,
      'current-context: c',
      '',
    ].join('\n'),
    { mode: 0o600 },
  );
  return file;
}

function runProgram(
  bin: string,
  args: string[],
  env: Record<string, string | undefined>,
): Promise<{ code: number; output: string }> {
  return new Promise((res) => {
    const child = spawn(bin, args, { env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (b: Buffer) => (output = (output + b.toString()).slice(-64 * 1024));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('error', (err) => res({ code: 128, output: err.message }));
    child.once('exit', (code, signal) => res({ code: code ?? (signal ? 137 : 1), output }));
  });
}
