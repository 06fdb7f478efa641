// The status a cluster's Deployment controller leaves on a rolled-out Deployment once its pods are
// ready (kwok's on the real cluster): every replica available, and the two conditions. The sandbox
// has no kubelet and makes no ReplicaSets, so OLM v0's and OLM v1's Deployments both get this after
// a delay; the ReplicaSet named is the one the template's hash would give.
import { createHash } from 'node:crypto';
import type { KObject } from '../store/types';

export function rolledOutStatus(d: KObject, at: string): Record<string, unknown> {
  const spec = (d.spec ?? {}) as { replicas?: number; template?: unknown };
  const replicas = spec.replicas ?? 1;
  const replicaSet = `${d.metadata.name}-${createHash('sha256')
    .update(JSON.stringify(spec.template ?? {}))
    .digest('hex')
    .slice(0, 10)}`;
  return {
    observedGeneration: d.metadata.generation,
    replicas,
    readyReplicas: replicas,
    availableReplicas: replicas,
    updatedReplicas: replicas,
    conditions: [
      {
        type: 'Available',
        status: 'True',
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
        lastUpdateTime: at,
        lastTransitionTime: at,
      },
      {
        type: 'Progressing',
        status: 'True',
        reason: 'NewReplicaSetAvailable',
        message: `ReplicaSet "${replicaSet}" has successfully progressed.`,
        lastUpdateTime: at,
        lastTransitionTime: at,
      },
    ],
  };
}
