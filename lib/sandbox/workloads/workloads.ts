// The workload controllers of kube-controller-manager, as far as a kwok-like node needs them:
// Deployments through ReplicaSets, ReplicaSets, StatefulSets and DaemonSets to pods, Jobs to
// completion. Each change the API server commits queues the object it concerns (and a pod's or
// ReplicaSet's owner); the queue runs after the write that woke it, each object once.
import type { ApiCore } from '../server/api-core';
import type { ServedResource } from '../server/resources';
import { storeKey } from '../server/resources';
import type { KObject } from '../store/types';
import { DeploymentController } from './deployments';
import { completeJob } from './jobs';
import { ReplicaController } from './replicas';

const KINDS = ['deployments', 'replicasets', 'statefulsets', 'daemonsets', 'jobs'];

function nowRfc3339(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export interface Workloads {
  /** Failures of the controllers' own writes: each is a sandbox bug. */
  controllerErrors: string[];
  stop(): void;
}

export function startWorkloads(api: ApiCore): Workloads {
  const find = (group: string, resource: string) => api.resources.find(group, 'v1', resource)!;
  const res: Record<string, ServedResource> = {
    deployments: find('apps', 'deployments'),
    replicasets: find('apps', 'replicasets'),
    statefulsets: find('apps', 'statefulsets'),
    daemonsets: find('apps', 'daemonsets'),
    jobs: find('batch', 'jobs'),
  };
  const pods = find('', 'pods');
  const deployments = new DeploymentController(api, res.deployments!, res.replicasets!);
  const replicas = new ReplicaController(api, pods, find('', 'nodes'));
  const errors: string[] = [];
  const queue = new Map<string, [string, string, string]>();
  let scheduled = false;

  const run = () => {
    scheduled = false;
    // Bounded: a controller that kept waking itself would otherwise spin forever.
    for (let pass = 0; queue.size && pass < 50; pass++) {
      const batch = [...queue.values()];
      queue.clear();
      for (const [resource, ns, name] of batch) {
        const r = res[resource]!;
        const o = api.store.get(storeKey(r), ns, name);
        if (!o || o.metadata.deletionTimestamp) continue;
        const now = nowRfc3339();
        try {
          if (resource === 'deployments') deployments.reconcile(ns, name, now);
          else if (resource === 'replicasets') replicas.replicaSet(r, o, now);
          else if (resource === 'statefulsets') replicas.statefulSet(r, o, now);
          else if (resource === 'daemonsets') replicas.daemonSet(r, o, now);
          else if (resource === 'jobs') completeJob(api, r, pods, o, now);
        } catch (err) {
          if (!/the object has been modified/.test((err as Error).message)) errors.push((err as Error).message);
          else enqueue(resource, ns, name);
        }
      }
    }
  };
  const enqueue = (resource: string, ns: string, name: string) => {
    queue.set(`${resource}/${ns}/${name}`, [resource, ns, name]);
    if (!scheduled) {
      scheduled = true;
      setImmediate(run);
    }
  };
  const owner = (o: KObject) => (o.metadata.ownerReferences ?? []).find((r) => r.controller);
  const RESOURCE_OF_KIND: Record<string, string> = {
    Deployment: 'deployments',
    ReplicaSet: 'replicasets',
    StatefulSet: 'statefulsets',
    DaemonSet: 'daemonsets',
  };

  const previous = api.hooks.onChange;
  api.hooks.onChange = (r, e) => {
    previous?.(r, e);
    const o = e.object;
    const ns = o.metadata.namespace ?? '';
    const isWorkload = (r.group === 'apps' || r.group === 'batch') && KINDS.includes(r.resource);
    if (isWorkload && e.type !== 'DELETED') enqueue(r.resource, ns, o.metadata.name ?? '');
    if ((r.group === '' && r.resource === 'pods') || (r.group === 'apps' && r.resource === 'replicasets')) {
      const ref = owner(o);
      const of = ref && RESOURCE_OF_KIND[ref.kind];
      if (of) enqueue(of, ns, ref.name);
    }
  };
  for (const [resource, r] of Object.entries(res))
    for (const o of api.store.list(storeKey(r)).items)
      enqueue(resource, o.metadata.namespace ?? '', o.metadata.name ?? '');

  return {
    controllerErrors: errors,
    stop: () => {
      api.hooks.onChange = previous;
    },
  };
}
