// OLM v0's unpacking of a bundle given by image (OLM v0.38.0 pkg/controller/bundle/bundle_unpacker.go
// UnpackBundle, and catalog/operator.go unpackBundles): a ConfigMap and a Job in the catalog's
// namespace, both named by a hash of the image reference; the Job's pod pulls the image and opm
// fills the ConfigMap. OLM reads the Job's conditions each pass: Failed gives the lookup OLM's
// failure (the Job's own reason and message), not Complete keeps it pending. The pod is run by the
// sandbox's stand-in for a kubelet (unpack-pods.ts), as the real cluster's is scripts/cluster-unpack.ts.
import { createHash } from 'node:crypto';
import { parseGoDuration } from '../../olm/catalog/registry-poll';
import { generatedName } from '../server/http-util';
import type { KObject } from '../store/types';
import { OLM, OperatorBase } from './operator-base';
import { runUnpackPod } from './unpack-pods';

export const UNPACK_REF_LABEL = 'operatorframework.io/bundle-unpack-ref';
export const UNPACK_TIMEOUT_ANNOTATION = 'operatorframework.io/bundle-unpack-timeout';
export const UNPACK_RETRY_ANNOTATION = 'operatorframework.io/bundle-unpack-min-retry-interval';
/** The catalog operator's `--bundle-unpack-timeout` default (cmd/catalog/start.go). */
export const DEFAULT_UNPACK_TIMEOUT_S = 600;
/** Unpack Jobs kept per bundle when retries pile up (ensureJob's maxRetainedJobs). */
const MAX_RETAINED_JOBS = 5;
const OPM_IMAGE = 'quay.io/operator-framework/opm:latest';
const UTIL_IMAGE = 'quay.io/operator-framework/olm:latest';

export type UnpackOutcome =
  { state: 'unpacked' } | { state: 'pending' } | { state: 'failed'; reason: string; message: string };

export interface UnpackSettings {
  /** The Job's activeDeadlineSeconds; undefined for none (an annotation of 0). */
  deadlineSeconds: number | undefined;
  /** The least time after a failed Job before another is made; 0 for never. */
  retryMs: number;
}

/** The unpack ConfigMap's and Job's name: sha256 of the image reference, 63 hex digits (a label value). */
export function unpackName(image: string): string {
  return createHash('sha256').update(image).digest('hex').slice(0, 63);
}

/**
 * The unpack settings of a namespace's one OperatorGroup's annotations
 * (OperatorGroupBundleUnpackTimeout, OperatorGroupBundleUnpackRetryInterval), or the parse error
 * that stops OLM's sync of the namespace. A negative timeout is ignored, as OLM ignores it.
 */
export function unpackSettings(og: KObject): UnpackSettings | { error: string } {
  const annotations = og.metadata.annotations ?? {};
  let deadlineSeconds: number | undefined = DEFAULT_UNPACK_TIMEOUT_S;
  let retryMs = 0;
  const timeout = annotations[UNPACK_TIMEOUT_ANNOTATION];
  try {
    if (timeout !== undefined) {
      const ms = parseGoDuration(timeout);
      if (ms === 0) deadlineSeconds = undefined;
      else if (ms > 0) deadlineSeconds = Math.trunc(ms / 1000);
    }
  } catch (err) {
    return {
      error:
        `failed to parse unpack timeout annotation(${UNPACK_TIMEOUT_ANNOTATION}: ${timeout}): ` +
        (err as Error).message,
    };
  }
  const retry = annotations[UNPACK_RETRY_ANNOTATION];
  try {
    if (retry !== undefined) retryMs = parseGoDuration(retry);
  } catch (err) {
    return {
      error: `failed to parse unpack retry annotation(${UNPACK_RETRY_ANNOTATION}: ${retry}): ${(err as Error).message}`,
    };
  }
  return { deadlineSeconds, retryMs };
}

type JobCondition = { type?: string; status?: string; reason?: string; message?: string; lastTransitionTime?: string };
const conditionOf = (job: KObject, type: string) =>
  ((job.status as { conditions?: JobCondition[] } | undefined)?.conditions ?? []).find(
    (c) => c.type === type && c.status === 'True',
  );

const ownerRef = (o: KObject) => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: o.metadata.name ?? '',
  uid: o.metadata.uid ?? '',
  controller: false,
  blockOwnerDeletion: false,
});

export class BundleUnpacker extends OperatorBase {
  private get configMaps() {
    return this.res('', 'v1', 'configmaps');
  }
  private get jobs() {
    return this.res('batch', 'v1', 'jobs');
  }

  /** One pass of OLM's UnpackBundle for the bundle image `image` of the catalog `catalog`. */
  unpack(image: string, catalog: { name: string; namespace: string }, settings: UnpackSettings): UnpackOutcome {
    const cs = this.exists(this.catalogSources, catalog.namespace, catalog.name);
    // CatalogSourceMissing: the lookup stays pending.
    if (!cs) return { state: 'pending' };
    const name = unpackName(image);
    const cm = this.ensureConfigMap(cs, name);
    const secrets = ((cs.spec as { secrets?: string[] } | undefined)?.secrets ?? []).map((s) => ({ name: s }));
    const job = this.ensureJob(cm, image, secrets, settings);
    if (!job) return { state: 'pending' };
    const failed = conditionOf(job, 'Failed');
    if (failed) return { state: 'failed', reason: failed.reason ?? '', message: failed.message ?? '' };
    if (!conditionOf(job, 'Complete')) {
      runUnpackPod(this.api, job, cm);
      return { state: 'pending' };
    }
    const filled = this.exists(this.configMaps, catalog.namespace, name);
    return Object.keys((filled?.binaryData as object | undefined) ?? {}).length
      ? { state: 'unpacked' }
      : { state: 'pending' };
  }

  /** ensureConfigmap: empty, labelled olm.managed, owned (not controlled) by the CatalogSource. */
  private ensureConfigMap(cs: KObject, name: string): KObject {
    const ns = cs.metadata.namespace ?? '';
    const existing = this.exists(this.configMaps, ns, name);
    if (existing) return existing;
    return this.api.createObject(this.configMaps, {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name,
        namespace: ns,
        labels: { 'olm.managed': 'true' },
        ownerReferences: [{ ...ownerRef(cs), apiVersion: `${OLM}/v1alpha1`, kind: 'CatalogSource' }],
      },
    });
  }

  /**
   * ensureJob: the newest Job of the bundle (a Job not failed first), or a new one; with a retry
   * interval, a failed Job older than it gets a successor under a generated name and the oldest
   * failed Jobs past five go. A Job whose deadline no longer matches the OperatorGroup's is
   * deleted, to be made again on the next pass.
   */
  private ensureJob(cm: KObject, image: string, secrets: { name: string }[], settings: UnpackSettings) {
    const ns = cm.metadata.namespace ?? '';
    const name = cm.metadata.name ?? '';
    const fresh = this.jobFor(cm, image, secrets, settings.deadlineSeconds);
    const jobs = this.api.storeList(this.jobs, ns).filter((j) => j.metadata.labels?.[UNPACK_REF_LABEL] === name);
    if (jobs.length === 0) return this.api.createObject(this.jobs, fresh);
    const failedAt = (j: KObject) => conditionOf(j, 'Failed')?.lastTransitionTime;
    jobs.sort((a, b) => {
      const fa = failedAt(a);
      const fb = failedAt(b);
      if (!fa !== !fb) return fa ? 1 : -1;
      return (fb ?? '').localeCompare(fa ?? '');
    });
    const latest = jobs[0]!;
    const failed = failedAt(latest);
    if (settings.retryMs > 0 && failed) {
      if (Date.now() > Date.parse(failed) + settings.retryMs)
        return this.api.createObject(this.jobs, {
          ...fresh,
          // SimpleNameGenerator: the base cut to 58 characters, then 5 generated ones.
          metadata: { ...fresh.metadata, name: generatedName(name) },
        });
      if (jobs.length > MAX_RETAINED_JOBS)
        for (let i = 0; i < MAX_RETAINED_JOBS && i + MAX_RETAINED_JOBS < jobs.length - 1; i++)
          this.api.deleteObject(this.jobs, ns, jobs[MAX_RETAINED_JOBS + i]!.metadata.name ?? '');
    }
    // DeepDerivative(fresh.Spec, job.Spec): what the fresh Job sets must match; what it leaves
    // unset (no deadline, no pull secrets) matches anything.
    type Spec = { activeDeadlineSeconds?: number; template: { spec: { imagePullSecrets?: unknown[] } } };
    const want = fresh.spec as Spec;
    const have = latest.spec as Spec;
    const deadlineOk =
      want.activeDeadlineSeconds === undefined || want.activeDeadlineSeconds === have.activeDeadlineSeconds;
    const secretsOk =
      !want.template.spec.imagePullSecrets ||
      JSON.stringify(want.template.spec.imagePullSecrets) === JSON.stringify(have.template?.spec?.imagePullSecrets);
    if (deadlineOk && secretsOk) return latest;
    this.api.deleteObject(this.jobs, ns, latest.metadata.name ?? '');
    return undefined;
  }

  /** The Job OLM makes (bundle_unpacker.go job()): init containers util and pull, container extract. */
  private jobFor(cm: KObject, image: string, secrets: { name: string }[], deadline: number | undefined): KObject {
    const name = cm.metadata.name ?? '';
    const ns = cm.metadata.namespace ?? '';
    const labels = { 'olm.managed': 'true', [UNPACK_REF_LABEL]: name };
    const requests = { resources: { requests: { cpu: '10m', memory: '50Mi' } } };
    const locked = {
      securityContext: {
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      },
      terminationMessagePolicy: 'FallbackToLogsOnError',
    };
    return {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: {
        name,
        namespace: ns,
        labels,
        ownerReferences: [{ ...ownerRef(cm), apiVersion: 'v1', kind: 'ConfigMap' }],
      },
      spec: {
        backoffLimit: 3,
        ...(deadline !== undefined ? { activeDeadlineSeconds: deadline } : {}),
        template: {
          metadata: { name, labels: { ...labels } },
          spec: {
            restartPolicy: 'Never',
            ...(secrets.length ? { imagePullSecrets: secrets } : {}),
            securityContext: { seccompProfile: { type: 'RuntimeDefault' } },
            initContainers: [
              {
                name: 'util',
                image: UTIL_IMAGE,
                command: ['/bin/cp', '-Rv', '/bin/cpb', '/util/cpb'],
                volumeMounts: [{ name: 'util', mountPath: '/util' }],
                ...requests,
                ...locked,
              },
              {
                name: 'pull',
                image,
                // InferImagePullPolicy: an image by digest is never pulled again.
                imagePullPolicy: image.includes('@') ? 'IfNotPresent' : 'Always',
                command: ['/util/cpb', '/bundle'],
                volumeMounts: [
                  { name: 'bundle', mountPath: '/bundle' },
                  { name: 'util', mountPath: '/util' },
                ],
                ...requests,
                ...locked,
              },
            ],
            containers: [
              {
                name: 'extract',
                image: OPM_IMAGE,
                command: ['opm', 'alpha', 'bundle', 'extract', '-m', '/bundle/', '-n', ns, '-c', name, '-z'],
                env: [{ name: 'CONTAINER_IMAGE', value: image }],
                volumeMounts: [{ name: 'bundle', mountPath: '/bundle' }],
                ...requests,
                ...locked,
              },
            ],
            volumes: [
              { name: 'bundle', emptyDir: {} },
              { name: 'util', emptyDir: {} },
            ],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            tolerations: [
              ...['amd64', 'arm64', 'ppc64le', 's390x'].map((a) => ({
                key: 'kubernetes.io/arch',
                value: a,
                operator: 'Equal',
              })),
              { key: 'node-role.kubernetes.io/master', operator: 'Exists', effect: 'NoSchedule' },
              {
                key: 'node.kubernetes.io/unreachable',
                operator: 'Exists',
                effect: 'NoExecute',
                tolerationSeconds: 120,
              },
              { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 120 },
            ],
          },
        },
      },
    };
  }
}
