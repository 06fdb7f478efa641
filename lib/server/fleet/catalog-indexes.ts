// The catalog index each cluster of the fleet is read through. lib/catalog's shared index keys its
// entries by `namespace/name` of the CatalogSource and its direct routes by address alone: asked
// about another cluster, an `olm/operatorhubio-catalog` there would be answered from the home
// cluster's read of its own catalog of that name, and an address such as
// `operatorhubio-catalog.olm.svc:50051`, dialed from the console, reaches the home cluster's
// service, not that cluster's. So the home cluster keeps the shared index, and every other cluster
// has an index of its own, keyed by the cluster's name, whose registries are reached through that
// cluster's API server (a port-forward as the person). It dials an address directly only where
// the address is the console's own loopback and so is that cluster's API server: the cluster runs
// on the console's machine (the sandbox fleet, one process serving every cluster's registries on
// ports of their own), so the address means the same thing from the console as from the cluster.
import { CatalogIndex, sharedCatalogIndex } from '../../catalog/catalog-index';
import type { KubeClient } from '../../k8s/client';
import { clusterCacheKey, memberOfCacheKey, type FleetMember } from './members';

const KEY = Symbol.for('olm-console.fleet.catalog-indexes');
const shared = globalThis as { [KEY]?: Map<string, CatalogIndex> };

/**
 * At most this many other clusters' indexes are kept, the least recently used dropped first. Each
 * holds every catalog read on its cluster (a large public catalog is tens of megabytes parsed), so
 * a console over fifty clusters whose rollouts a person opens one after another would otherwise
 * keep every one of them for as long as it runs; a dropped index is read again when next asked.
 */
export const MAX_CLUSTER_INDEXES = 8;

/** True for 127.0.0.0/8, ::1 and localhost, with or without a port or URL around them. */
export function isLoopback(hostOrAddress: string): boolean {
  let host = hostOrAddress;
  try {
    if (/^[a-z]+:\/\//i.test(host)) host = new URL(host).hostname;
  } catch {
    return false;
  }
  host = host.replace(/^\[(.*)\](:\d+)?$/, '$1').replace(/^([^:]+):\d+$/, '$1');
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Which registry addresses the console may dial itself for this cluster (other than home). */
export function mayDialFor(member: FleetMember): (address: string) => boolean {
  const beside = isLoopback(member.access.server);
  return (address) => beside && isLoopback(address);
}

export function clusterCatalogIndex(member: FleetMember): CatalogIndex {
  if (member.home) return sharedCatalogIndex();
  const indexes = (shared[KEY] ??= new Map());
  // A hub member's key holds the address the hub gives: pointed elsewhere, it is another index.
  const key = clusterCacheKey(member) ?? member.name;
  let index = indexes.get(key);
  if (index) {
    // Used now: moved to the end, the most recently used (a Map keeps insertion order).
    indexes.delete(key);
  } else {
    index = new CatalogIndex(Date.now, { mayDial: mayDialFor(member) });
  }
  indexes.set(key, index);
  while (indexes.size > MAX_CLUSTER_INDEXES) {
    const [oldest, dropped] = indexes.entries().next().value!;
    indexes.delete(oldest);
    // Its registry connections (port-forwards through that cluster's API server) go with it once
    // no read is using them: a read still under way finishes, and is then forgotten.
    void dropped.retire().catch(() => undefined);
  }
  return index;
}

/** The clusters whose indexes are kept, least recently used first (for the tests). */
export function keptClusterIndexes(): string[] {
  return [...(shared[KEY]?.keys() ?? [])];
}

/**
 * The index a person's client reads catalogs through: the home cluster's shared one, or the index
 * of the fleet member the client reaches (a page or API route under `/clusters/<name>/…`), found
 * by the client's cache key (members.ts: a configured member's name, a hub member's name and address).
 */
export function catalogIndexOf(client: KubeClient): CatalogIndex {
  if (!client.cluster) return sharedCatalogIndex();
  const member = memberOfCacheKey(client.cluster);
  if (!member) throw new Error(`no cluster ${client.cluster} in the fleet`);
  return clusterCatalogIndex(member);
}
