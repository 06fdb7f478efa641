// The defaults kube-apiserver gives workloads when it reads them (k8s.io/kubernetes
// pkg/apis/apps/v1/defaults.go, pkg/apis/batch/v1/defaults.go, pkg/apis/core/v1/defaults.go for
// the pod template), and the selector and labels the Job strategy generates on create. Fields a
// person set are kept; only missing ones are filled, so applying them twice changes nothing.
import { randomUUID } from 'node:crypto';
import type { KObject } from '../store/types';
import { olmManaged } from './olm-managed';
import { serviceDefaults } from './services';

type Obj = Record<string, unknown>;

function fill(o: Obj, defaults: Obj): void {
  for (const [k, v] of Object.entries(defaults)) if (o[k] === undefined) o[k] = v;
}

function obj(parent: Obj, key: string): Obj {
  const v = parent[key];
  if (v && typeof v === 'object' && !Array.isArray(v)) return v as Obj;
  const made: Obj = {};
  parent[key] = made;
  return made;
}

/** An image without a tag or with `:latest` is pulled always; any other, if not present. */
function pullPolicy(image: unknown): string {
  const ref = String(image ?? '');
  if (ref.includes('@')) return 'IfNotPresent';
  const tag = /:([^/:]+)$/.exec(ref)?.[1];
  return !tag || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

function containerDefaults(c: Obj): void {
  fill(c, {
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
    imagePullPolicy: pullPolicy(c.image),
    resources: {},
  });
  for (const p of (c.ports as Obj[] | undefined) ?? []) fill(p, { protocol: 'TCP' });
}

/** A pod template's spec as the core defaults leave it. */
export function podSpecDefaults(spec: Obj, restartPolicy = 'Always'): void {
  fill(spec, {
    restartPolicy,
    terminationGracePeriodSeconds: 30,
    dnsPolicy: 'ClusterFirst',
    securityContext: {},
    schedulerName: 'default-scheduler',
  });
  for (const c of [...((spec.containers as Obj[]) ?? []), ...((spec.initContainers as Obj[]) ?? [])])
    containerDefaults(c);
}

function templateDefaults(spec: Obj, restartPolicy?: string): void {
  const template = obj(spec, 'template');
  obj(template, 'metadata');
  podSpecDefaults(obj(template, 'spec'), restartPolicy);
}

const JOB_UID_LABELS = ['batch.kubernetes.io/controller-uid', 'controller-uid'];
const JOB_NAME_LABELS = ['batch.kubernetes.io/job-name', 'job-name'];

/** The Job strategy's generated selector and template labels (unless `manualSelector`). */
function jobSelector(job: KObject, spec: Obj): void {
  if (spec.manualSelector === true || spec.selector) return;
  const uid = randomUUID();
  const labels = obj(obj(obj(spec, 'template'), 'metadata'), 'labels') as Record<string, string>;
  for (const k of JOB_UID_LABELS) labels[k] = uid;
  for (const k of JOB_NAME_LABELS) labels[k] = job.metadata.name ?? '';
  spec.selector = { matchLabels: { [JOB_UID_LABELS[0]!]: uid } };
  spec.manualSelector = false;
  // A Job without labels of its own takes its template's (the Job strategy's PrepareForCreate).
  if (!Object.keys(job.metadata.labels ?? {}).length) job.metadata.labels = { ...labels };
}

function jobDefaults(spec: Obj): void {
  if (spec.completions === undefined && spec.parallelism === undefined) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  fill(spec, {
    parallelism: 1,
    backoffLimit: 6,
    completionMode: 'NonIndexed',
    suspend: false,
    podReplacementPolicy: 'TerminatingOrFailed',
  });
  templateDefaults(spec);
}

const WORKLOADS = new Set([
  'apps/Deployment',
  'apps/ReplicaSet',
  'apps/StatefulSet',
  'apps/DaemonSet',
  'batch/Job',
  'batch/CronJob',
]);

/**
 * Fills the defaults of a workload kind in place; other kinds are left as they are. The OLM
 * emulations' Deployments are left as written: those emulations tell drift by comparing what they
 * wrote with what is stored (real OLM uses hashes and server-side apply), so a default would read
 * as a change and start another upgrade.
 */
export function workloadDefaults(group: string, kind: string, o: KObject, creating: boolean): void {
  if (olmManaged(o)) return;
  if (group === '' && kind === 'Service') return serviceDefaults(o, creating);
  if (!WORKLOADS.has(`${group}/${kind}`)) return;
  const spec = obj(o as unknown as Obj, 'spec');
  if (group === 'apps' && kind === 'Deployment') {
    fill(spec, { replicas: 1, revisionHistoryLimit: 10, progressDeadlineSeconds: 600 });
    // kubectl's typed client sends an empty strategy (a Go struct is never left out).
    const strategy = obj(spec, 'strategy');
    fill(strategy, { type: 'RollingUpdate' });
    if (strategy.type === 'RollingUpdate')
      fill(obj(strategy, 'rollingUpdate'), { maxUnavailable: '25%', maxSurge: '25%' });
    templateDefaults(spec);
  } else if (group === 'apps' && kind === 'ReplicaSet') {
    fill(spec, { replicas: 1 });
    templateDefaults(spec);
  } else if (group === 'apps' && kind === 'StatefulSet') {
    fill(spec, {
      replicas: 1,
      podManagementPolicy: 'OrderedReady',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0 } },
      revisionHistoryLimit: 10,
      persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
    });
    templateDefaults(spec);
  } else if (group === 'apps' && kind === 'DaemonSet') {
    fill(spec, {
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
    templateDefaults(spec);
  } else if (group === 'batch' && kind === 'Job') {
    if (creating) jobSelector(o, spec);
    jobDefaults(spec);
  } else if (group === 'batch' && kind === 'CronJob') {
    fill(spec, {
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    // Only the pod template inside is defaulted: a Job's own defaults wait for the Job.
    const jobTemplate = obj(spec, 'jobTemplate');
    obj(jobTemplate, 'metadata');
    templateDefaults(obj(jobTemplate, 'spec'));
  }
}
