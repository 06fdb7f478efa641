// The sandbox's stand-in for a kubelet and the Job controller, for OLM v0's unpack Jobs only (the
// sandbox's workload controllers leave Jobs labelled operatorframework.io/bundle-unpack-ref to this:
// workloads/jobs.ts). As on the real cluster (scripts/cluster-unpack.ts), the pod's steps are done
// for it: the `pull` init container's image comes from the sandbox's registries with the pod's
// pull secrets, and `opm alpha bundle extract -z` fills the ConfigMap (operator-registry v1.61.0
// configmap_writer.go Populate): each file of manifests/ under its name, gzipped then base64-encoded
// in binaryData; metadata/annotations.yaml's six bundle annotations as the ConfigMap's annotations,
// then olm.sourceImage (the pod's CONTAINER_IMAGE) and olm.contentEncoding. A pull that fails keeps
// the pod Pending from the start, its `pull` container waiting on ErrImagePull, then
// ImagePullBackOff, until the Job's activeDeadlineSeconds ends it as Kubernetes 1.34's Job
// controller does (FailureTarget, then Failed, reason DeadlineExceeded) and deletes its pod. The
// Job controller's and the scheduler's events are recorded as the real cluster shows them.
import { gzipSync } from 'node:zlib';
import yaml from 'js-yaml';
import { pullSandboxImage } from '../image-registry/bundle-store';
import type { ApiServer } from '../server/api-server';
import { generatedName } from '../server/http-util';
import type { KObject } from '../store/types';
import { recordEvent } from '../workloads/events';
import { completedConditions } from '../workloads/jobs';
import { kwokPod, NODE_NAME } from '../workloads/pods';

type Obj = Record<string, unknown>;
type Container = { name: string; image: string; env?: { name: string; value?: string }[] };

const rfc3339 = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** operator-registry's configmap key rule: characters a key may not hold become '-'. */
const configMapKey = (file: string) => file.replace(/[^-A-Za-z0-9_.]/g, '-');

/** The annotations opm copies from metadata/annotations.yaml, each written even when empty. */
const BUNDLE_ANNOTATIONS = [
  'operators.operatorframework.io.bundle.manifests.v1',
  'operators.operatorframework.io.bundle.mediatype.v1',
  'operators.operatorframework.io.bundle.metadata.v1',
  'operators.operatorframework.io.bundle.package.v1',
  'operators.operatorframework.io.bundle.channels.v1',
  'operators.operatorframework.io.bundle.channel.default.v1',
];

/** The `auths` of the pull secrets a pod names, as a container runtime reads them. */
function pullAuths(api: ApiServer, ns: string, spec: Obj): Record<string, { auth?: string }> {
  const secrets = api.resources.find('', 'v1', 'secrets')!;
  const auths: Record<string, { auth?: string }> = {};
  for (const ref of (spec.imagePullSecrets as { name?: string }[] | undefined) ?? []) {
    const s = api.storeGet(secrets, ns, ref.name ?? '');
    const raw = (s?.data as Record<string, string> | undefined)?.['.dockerconfigjson'];
    if (!raw) continue;
    try {
      const parsed = JSON.parse(Buffer.from(raw, 'base64').toString('utf8')) as { auths?: typeof auths };
      for (const [host, a] of Object.entries(parsed.auths ?? {})) auths[host] ??= a;
    } catch {
      // A secret that is not JSON gives no credentials, as a runtime skips it.
    }
  }
  return auths;
}

/** What opm writes into the ConfigMap for the image's files. */
export function extractedConfigMap(cm: KObject, image: string, files: ReadonlyMap<string, string>): KObject {
  const binaryData: Record<string, string> = {};
  let annotations: Record<string, string> = {};
  for (const [path, text] of files) {
    if (path === 'metadata/annotations.yaml') {
      const doc = (yaml.load(text) as { annotations?: Record<string, string> } | undefined)?.annotations ?? {};
      annotations = Object.fromEntries(BUNDLE_ANNOTATIONS.map((k) => [k, doc[k] ?? '']));
      continue;
    }
    const m = /^(manifests|metadata)\/([^/]+)$/.exec(path);
    if (!m) continue;
    // OLM's own base64 of the gzip stream is the value's bytes; the API shows those bytes base64-encoded.
    const inner = gzipSync(Buffer.from(text, 'utf8')).toString('base64');
    binaryData[configMapKey(m[2]!)] = Buffer.from(inner, 'latin1').toString('base64');
  }
  return {
    ...cm,
    metadata: {
      ...cm.metadata,
      annotations: { ...annotations, 'olm.sourceImage': image, 'olm.contentEncoding': 'gzip+base64' },
    },
    binaryData,
  };
}

/** One step of the unpack Job `job`'s pod: made, pulled and extracted, or still failing to pull. */
export function runUnpackPod(api: ApiServer, unpackJob: KObject, cm: KObject): void {
  let job = unpackJob;
  const pods = api.resources.find('', 'v1', 'pods')!;
  const jobs = api.resources.find('batch', 'v1', 'jobs')!;
  const configMaps = api.resources.find('', 'v1', 'configmaps')!;
  const ns = job.metadata.namespace ?? '';
  const jobName = job.metadata.name ?? '';
  const template = (job.spec as { template: { spec: Obj } }).template;
  const nowMs = Date.now();
  const now = rfc3339(nowMs);
  const pull = ((template.spec.initContainers as Container[]) ?? []).find((c) => c.name === 'pull');
  if (!pull) return;
  const updateJob = (status: Obj) =>
    api.updateObject(jobs, { ...job, status: { ...(job.status as Obj), ...status } }, 'status');
  let pod = api.storeList(pods, ns).find((p) => p.metadata.labels?.['job-name'] === jobName);
  if (!pod) {
    // The Job controller makes the pod (recording it, as the scheduler records its placement), and
    // the kubelet pulls at once: a pull that fails shows on the pod from the start.
    const uid = job.metadata.uid ?? '';
    const name = generatedName(`${jobName}-`);
    const made = kwokPod(
      job,
      template as Obj,
      name,
      {
        'batch.kubernetes.io/controller-uid': uid,
        'batch.kubernetes.io/job-name': jobName,
        'controller-uid': uid,
        'job-name': jobName,
      },
      now,
    );
    pod = api.createObject(pods, { ...made, status: pendingStatus(made, now, 'PodInitializing') });
    recordEvent(api, job, 'SuccessfulCreate', `Created pod: ${name}`, 'job-controller', now);
    recordEvent(api, pod, 'Scheduled', `Successfully assigned ${ns}/${name} to ${NODE_NAME}`, 'default-scheduler', now);
    job = updateJob({ startTime: now, active: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {} });
    const first = pullSandboxImage(pull.image, pullAuths(api, ns, template.spec));
    if ('error' in first) pullFailed(api, pod, pull.image, first.error, now);
    // A pull that works is taken up on the next step, as the pod's containers then run.
    return;
  }
  const pulled = pullSandboxImage(pull.image, pullAuths(api, ns, template.spec));
  if ('error' in pulled) {
    const deadline = (job.spec as { activeDeadlineSeconds?: number }).activeDeadlineSeconds;
    const started = Date.parse(String((job.status as { startTime?: string } | undefined)?.startTime ?? now));
    if (deadline !== undefined && nowMs >= started + deadline * 1000) {
      const cond = (type: string) => ({
        type,
        status: 'True',
        lastProbeTime: now,
        lastTransitionTime: now,
        reason: 'DeadlineExceeded',
        message: 'Job was active longer than specified deadline',
      });
      const podName = pod.metadata.name ?? '';
      api.deleteObject(pods, ns, podName);
      recordEvent(api, job, 'SuccessfulDelete', `Deleted pod: ${podName}`, 'job-controller', now);
      updateJob({ conditions: [cond('FailureTarget'), cond('Failed')], active: 0, failed: 1, ready: 0 });
      recordEvent(
        api,
        job,
        'DeadlineExceeded',
        'Job was active longer than specified deadline',
        'job-controller',
        now,
        'Warning',
      );
      return;
    }
    pullFailed(api, pod, pull.image, pulled.error, now);
    return;
  }
  const image = pull.image;
  const extractEnv = ((template.spec.containers as Container[]) ?? [])[0]?.env ?? [];
  const sourceImage = extractEnv.find((e) => e.name === 'CONTAINER_IMAGE')?.value ?? image;
  const fresh = api.storeGet(configMaps, cm.metadata.namespace, cm.metadata.name ?? '') ?? cm;
  api.updateObject(configMaps, extractedConfigMap(fresh, sourceImage, pulled.files));
  const done = kwokPod(job, template as Obj, pod.metadata.name ?? '', {}, now, true);
  api.updateObject(pods, { ...pod, status: done.status }, 'status');
  updateJob({
    conditions: completedConditions(now),
    completionTime: now,
    succeeded: 1,
    active: 0,
    ready: 0,
  });
  recordEvent(api, job, 'Completed', 'Job completed', 'job-controller', now);
}

/**
 * The kubelet's answer to a failed pull: the `pull` container waiting with ErrImagePull, then
 * ImagePullBackOff while it backs off (each step of the emulation is one attempt).
 */
function pullFailed(api: ApiServer, pod: KObject, image: string, error: string, now: string): void {
  const pods = api.resources.find('', 'v1', 'pods')!;
  const waiting = (pod.status as { initContainerStatuses?: { state?: { waiting?: { reason?: string } } }[] })
    ?.initContainerStatuses?.[1]?.state?.waiting?.reason;
  const reason = waiting === 'ErrImagePull' || waiting === 'ImagePullBackOff' ? 'ImagePullBackOff' : 'ErrImagePull';
  const message =
    reason === 'ErrImagePull'
      ? `failed to pull image "${image}": ${error}`
      : `Back-off pulling image "${image}": ErrImagePull: ${error}`;
  if (waiting !== reason)
    api.updateObject(pods, { ...pod, status: pendingStatus(pod, now, reason, message) }, 'status');
}

/** A Pending pod's status: init container `util` done, `pull` waiting for `reason`. */
function pendingStatus(pod: KObject, now: string, reason: string, message?: string): Obj {
  const spec = pod.spec as { initContainers?: Container[]; containers?: Container[] };
  const [util, pull] = spec.initContainers ?? [];
  const waitingFor = (c: Container, why: string, msg?: string) => ({
    name: c.name,
    image: c.image,
    imageID: '',
    ready: false,
    restartCount: 0,
    started: false,
    state: { waiting: { reason: why, ...(msg ? { message: msg } : {}) } },
  });
  return {
    phase: 'Pending',
    conditions: [
      { type: 'PodReadyToStartContainers', status: 'True', lastProbeTime: null, lastTransitionTime: now },
      {
        type: 'Initialized',
        status: 'False',
        lastProbeTime: null,
        lastTransitionTime: now,
        reason: 'ContainersNotInitialized',
        message: 'containers with incomplete status: [pull]',
      },
      { type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: now },
    ],
    hostIP: '10.0.0.1',
    hostIPs: [{ ip: '10.0.0.1' }],
    startTime: now,
    initContainerStatuses: [
      {
        name: util!.name,
        image: util!.image,
        imageID: '',
        ready: true,
        restartCount: 0,
        started: false,
        state: { terminated: { exitCode: 0, reason: 'Completed', startedAt: now, finishedAt: now } },
      },
      waitingFor(pull!, reason, message),
    ],
    containerStatuses: (spec.containers ?? []).map((c) => waitingFor(c, 'PodInitializing')),
  };
}
