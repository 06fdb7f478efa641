// What a cluster's Deployment controller and kubelet (kwok on the real cluster) do for the
// Deployments an extension installs: after a short delay they report every replica available.
// operator-controller never waits for this (Installed is True once the writes succeed); the
// console shows it. OLM v0's Deployments get the same from its emulation (olm-operator.ts).
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { rolledOutStatus } from '../olm/deployment-status';
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
    api.updateObject(r, { ...cur, status: rolledOutStatus(cur, nowRfc3339()) }, 'status');
  }, delayMs).unref();
}
