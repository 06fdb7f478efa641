// A Subscription's `catalogHealth` and `CatalogSourcesUnhealthy` condition, computed as OLM's
// subscription state machine computes them (catalog/subscription/state.go UpdateHealth): health is
// over every catalog of the namespace and the global namespace, not only the one subscribed to.
import type { Cond } from './operator-base';

export interface CatalogHealth {
  catalogSourceRef: { apiVersion: string; kind: string; name: string; namespace: string; uid?: string };
  healthy: boolean;
  lastUpdated: string;
}

const TYPE = 'CatalogSourcesUnhealthy';

/**
 * The condition and health list after one sync, or undefined when OLM would write nothing.
 * `health` is every relevant catalog's, ordered by namespace then name (catalogHealth()).
 */
export function updateCatalogHealth(
  target: { source: string; sourceNamespace: string },
  prev: { conditions?: Cond[]; catalogHealth?: CatalogHealth[] },
  health: CatalogHealth[],
  now: string,
): { conditions: Cond[]; catalogHealth: CatalogHealth[] } | undefined {
  const old = prev.conditions?.find((c) => c.type === TYPE);
  // OLM starts from the condition as it was: a message it does not set stays what it was.
  const cond: Cond = { ...(old ?? { type: TYPE, status: '' }) };
  const key = (h: CatalogHealth) =>
    h.catalogSourceRef.uid ?? `${h.catalogSourceRef.namespace}/${h.catalogSourceRef.name}`;
  const set = new Map(health.map((h) => [key(h), h]));
  const healthy = health.every((h) => h.healthy);
  let missingTargeted = true;
  for (const h of health) {
    if (h.catalogSourceRef.namespace !== target.sourceNamespace || h.catalogSourceRef.name !== target.source) continue;
    missingTargeted = false;
    if (!h.healthy)
      cond.message = `targeted catalogsource ${h.catalogSourceRef.namespace}/${h.catalogSourceRef.name} unhealthy`;
  }
  if (missingTargeted) cond.message = `targeted catalogsource ${target.sourceNamespace}/${target.source} missing`;
  if (missingTargeted || !healthy) {
    cond.status = 'True';
    cond.reason = 'UnhealthyCatalogSourceFound';
  } else {
    cond.status = 'False';
    cond.reason = 'AllCatalogSourcesHealthy';
    cond.message = 'all available catalogsources are healthy';
  }
  // A change in the set of catalogs (or in one's health) is what the reason says, for one sync.
  const before = prev.catalogHealth ?? [];
  let update = true;
  if (set.size > before.length) cond.reason = 'CatalogSourcesAdded';
  else if (set.size < before.length) cond.reason = 'CatalogSourcesDeleted';
  else if (set.size === 0) {
    cond.reason = 'NoCatalogSourcesFound';
    cond.message = 'dependency resolution requires at least one catalogsource';
  } else {
    if (before.some((o) => set.get(key(o))?.healthy !== o.healthy)) cond.reason = 'CatalogSourcesUpdated';
    update = false;
  }
  const same =
    !!old && old.status === cond.status && old.reason === cond.reason && (old.message ?? '') === (cond.message ?? '');
  if (!update && same) return undefined;
  // OLM writes again on every sync while nothing is found; the sandbox, whose passes repeat until
  // nothing changes, writes only what differs apart from the time stamps.
  if (
    same &&
    JSON.stringify(before.map((h) => [key(h), h.healthy])) === JSON.stringify(health.map((h) => [key(h), h.healthy]))
  )
    return undefined;
  const next = { ...cond, lastTransitionTime: now };
  if (!next.message) delete next.message;
  const conditions = [...(prev.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === TYPE);
  if (i >= 0) conditions[i] = next;
  else conditions.push(next);
  return { conditions, catalogHealth: health };
}
