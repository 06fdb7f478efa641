// What a cluster's Deployment controller and kubelet (kwok on the real cluster) do for the
// Deployments an extension installs: after a short delay they report every replica available.
// operator-controller never waits for this (Installed is True once the writes succeed); the
// console shows it. OLM v0's Deployments get the same from its emulation (olm-operator.ts).
import { randomBytes } from 'node:crypto';
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { nowRfc3339 } from './conditions';

export function reportAvailableLater(api: ApiServer, d: KObject, delayMs: number): void {
  const st = (d.status ?? {}) as { observedGeneration?: number };
  if (st.observedGeneration === d.metadata.generation) return;
  const r = api.resources.find('apps', 'v1', 'deployments')!;
  setTimeout(() => {
    const cur = api.storeGet(r, d.metadata.namespace, d.metadata.name ?? '');
    if (!cur || cur.metadata.deletionTimestamp) return;
    if ((cur.status as { observedGeneration?: number } | undefined)?.observedGeneration === cur.metadata.generation)
      return;
    const replicas = (cur.spec as { replicas?: number } | undefined)?.replicas ?? 1;
    const at = nowRfc3339();
    const replicaSet = `${cur.metadata.name}-${randomBytes(5).toString('hex').slice(0, 10)}`;
    api.updateObject(
      r,
      {
        ...cur,
        status: {
          observedGeneration: cur.metadata.generation,
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
        },
      },
      'status',
    );
  }, delayMs).unref();
}
