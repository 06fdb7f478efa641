// A package's rollout on one cluster of the fleet, read as the person: its OLM v0 Subscriptions
// (rollout-v0.ts) and OLM v1 ClusterExtensions (rollout-v1.ts), each with the path that cluster
// would take to its channel's head. Everything here is that cluster's: its objects, its catalogs
// read through its own API server, its catalog index (catalog-indexes.ts).
import type { ClusterRollout } from '../../api/fleet-rollout';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '../olm-v1/resources';
import { clusterCatalogIndex } from './catalog-indexes';
import type { FleetMember } from './members';
import { v0Rollout } from './rollout-v0';
import { v1Rollout } from './rollout-v1';

async function listOr<T extends object>(read: () => Promise<{ items: T[] }>, notes: string[]): Promise<T[]> {
  try {
    return (await read()).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    notes.push(err.message);
    return [];
  }
}

export async function clusterRollout(client: KubeClient, member: FleetMember, pkg: string): Promise<ClusterRollout> {
  const notes: string[] = [];
  const [subs, extensions] = await Promise.all([
    listOr(() => client.listAll<Subscription>(SUBSCRIPTION_TYPE), notes),
    (async () =>
      (await client.serves(CLUSTER_EXTENSION_TYPE))
        ? listOr(() => client.listAll<ClusterExtension>(CLUSTER_EXTENSION_TYPE), notes)
        : [])(),
  ]);
  const [v0, v1] = await Promise.all([
    v0Rollout(
      client,
      clusterCatalogIndex(member),
      subs.filter((s) => s.spec.name === pkg),
    ),
    v1Rollout(
      client,
      extensions.filter((ce) => ce.spec?.source?.catalog?.packageName === pkg),
      pkg,
    ),
  ]);
  return { installs: [...v0, ...v1], notes };
}
