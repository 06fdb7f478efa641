// The catalog sources page's data, read as the person: the CatalogSources they may list
// (cluster-wide, else in the namespaces they name and the global catalog namespaces), the
// packages the console's index holds for each, and which Subscriptions each one's ill health
// holds back.
import type { CatalogSourceRow, CatalogSourcesResponse } from '../api/catalog-sources';
import { GLOBAL_CATALOG_NAMESPACES, sharedCatalogIndex, visibleCatalogSources } from '../catalog/catalog-index';
import type { KubeClient } from '../k8s/client';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { blockedByUnhealthyCatalogs, catalogHealth } from '../olm/status/catalog-health';
import { listVisible } from './visible-list';

export async function listCatalogSources(client: KubeClient, namespace: string | undefined): Promise<CatalogSourcesResponse> {
  const viewers = [...(namespace ? [namespace] : []), ...GLOBAL_CATALOG_NAMESPACES];
  const [{ items }, index, subs] = await Promise.all([visibleCatalogSources(client, viewers), sharedCatalogIndex().forUser(client, viewers), listVisible<Subscription>(client, SUBSCRIPTION_TYPE, viewers)]);
  const blocked = blockedByUnhealthyCatalogs(subs);
  const rows = items.map((cs): CatalogSourceRow => {
    const ns = cs.metadata?.namespace ?? '';
    const name = cs.metadata?.name ?? '';
    const seen = index.catalogs.find((c) => c.namespace === ns && c.name === name);
    const poll = cs.spec.updateStrategy?.registryPoll?.interval;
    return {
      namespace: ns,
      name,
      displayName: cs.spec.displayName || name,
      publisher: cs.spec.publisher ?? '',
      sourceType: cs.spec.sourceType ?? 'grpc',
      priority: typeof cs.spec.priority === 'number' ? cs.spec.priority : 0,
      ...(cs.spec.image ? { origin: `image ${cs.spec.image}` } : cs.spec.address ? { origin: `address ${cs.spec.address}` } : cs.spec.configMap ? { origin: `ConfigMap ${cs.spec.configMap}` } : {}),
      ...(poll ? { pollInterval: poll } : {}),
      health: catalogHealth(cs),
      ...(seen?.source ? { readVia: seen.source } : {}),
      ...(seen?.problem ? { problem: seen.problem } : !seen ? { problem: 'you may not list its packages (packagemanifests) in its namespace' } : {}),
      packages: index.packages.filter((p) => p.catalog.namespace === ns && p.catalog.name === name).map((p) => p.name).sort(),
      blockedSubscriptions: blocked
        .filter((s) => s.spec.source === name && s.spec.sourceNamespace === ns)
        .map((s) => ({ namespace: s.metadata?.namespace ?? '', name: s.metadata?.name ?? '', message: s.status?.conditions?.find((c) => c.type === 'CatalogSourcesUnhealthy')?.message })),
    };
  });
  // OLM prefers higher priority; within it, by namespace and name for a stable order.
  rows.sort((a, b) => b.priority - a.priority || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  return { catalogSources: rows };
}
