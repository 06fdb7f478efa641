// The catalog sources page's data, read as the person: the CatalogSources they may list
// (cluster-wide, else in the namespaces they name and the global catalog namespaces), the
// packages the console's index holds for each, and which Subscriptions each one's ill health
// holds back.
import type { Allowed, CatalogSourceRow, CatalogSourcesResponse } from '../api/catalog-sources';
import { GLOBAL_CATALOG_NAMESPACES, visibleCatalogSources } from '../catalog/catalog-index';
import type { KubeClient } from '../k8s/client';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { blockedByUnhealthyCatalogs, catalogHealth } from '../olm/status/catalog-health';
import { formFromCatalogSource } from '../olm/catalog/catalog-source-form';
import { registryPoll } from '../olm/catalog/registry-poll';
import { isKubeError } from '../k8s/errors';
import { NAMESPACE_TYPE } from './install';
import { accessReview } from './permissions';
import { listVisible } from './visible-list';
import { listDisabledCatalogs } from './catalog-source-disable';
import { isManagedByMarketplace } from '../olm/catalog/operator-hub-config';
import { catalogIndexOf } from './fleet/catalog-indexes';

const CATALOG_SOURCES = ['operators.coreos.com', 'catalogsources'] as const;

/** The global catalog namespaces this cluster has: those with a catalog, else those that exist. */
async function presentGlobalNamespaces(client: KubeClient, withCatalogs: Set<string>): Promise<string[]> {
  const seen = GLOBAL_CATALOG_NAMESPACES.filter((n) => withCatalogs.has(n));
  if (seen.length) return seen;
  const found: string[] = [];
  for (const n of GLOBAL_CATALOG_NAMESPACES) {
    try {
      await client.get(NAMESPACE_TYPE, n);
      found.push(n);
    } catch (err) {
      if (!isKubeError(err, 404) && !isKubeError(err, 403)) throw err;
    }
  }
  return found;
}

export async function listCatalogSources(
  client: KubeClient,
  namespace: string | undefined,
): Promise<CatalogSourcesResponse> {
  const viewers = [...(namespace ? [namespace] : []), ...GLOBAL_CATALOG_NAMESPACES];
  const [{ items }, index, subs] = await Promise.all([
    visibleCatalogSources(client, viewers),
    catalogIndexOf(client).forUser(client, viewers),
    listVisible<Subscription>(client, SUBSCRIPTION_TYPE, viewers),
  ]);
  const blocked = blockedByUnhealthyCatalogs(subs);
  const namespaces = [...new Set(items.map((cs) => cs.metadata?.namespace ?? ''))];
  const globals = await presentGlobalNamespaces(client, new Set(namespaces));
  const rights = new Map<string, { edit: Allowed; del: Allowed }>();
  await Promise.all(
    namespaces.map(async (ns) => {
      const [edit, del] = await Promise.all([
        accessReview(client, 'update', ...CATALOG_SOURCES, ns),
        accessReview(client, 'delete', ...CATALOG_SOURCES, ns),
      ]);
      rights.set(ns, { edit, del });
    }),
  );
  const canCreate: Allowed = globals[0]
    ? await accessReview(client, 'create', ...CATALOG_SOURCES, globals[0])
    : { allowed: false, reason: 'this cluster has no global catalog namespace (olm or openshift-marketplace)' };
  const rows = items.map((cs): CatalogSourceRow => {
    const ns = cs.metadata?.namespace ?? '';
    const name = cs.metadata?.name ?? '';
    const seen = index.catalogs.find((c) => c.namespace === ns && c.name === name);
    // OLM polls only an image (CatalogSource.Poll): an interval on an address or folder does nothing.
    const poll = registryPoll({
      metadata: { creationTimestamp: cs.metadata?.creationTimestamp },
      spec: cs.spec,
      status: cs.status,
    })
      ? cs.spec.updateStrategy?.registryPoll?.interval
      : undefined;
    return {
      namespace: ns,
      name,
      displayName: cs.spec.displayName || name,
      publisher: cs.spec.publisher ?? '',
      sourceType: cs.spec.sourceType ?? 'grpc',
      priority: typeof cs.spec.priority === 'number' ? cs.spec.priority : 0,
      ...(cs.spec.image
        ? { origin: `image ${cs.spec.image}` }
        : cs.spec.address
          ? { origin: `address ${cs.spec.address}` }
          : cs.spec.configMap
            ? { origin: `ConfigMap ${cs.spec.configMap}` }
            : {}),
      ...(poll ? { pollInterval: poll } : {}),
      ...(cs.status?.latestImageRegistryPoll ? { lastPoll: cs.status.latestImageRegistryPoll } : {}),
      health: catalogHealth(cs),
      // A CatalogSource is read from its registry or through PackageManifests, never from catalogd.
      ...(seen?.source && seen.source !== 'catalogd' ? { readVia: seen.source } : {}),
      ...(seen?.problem
        ? { problem: seen.problem }
        : !seen
          ? { problem: 'you may not list its packages (packagemanifests) in its namespace' }
          : {}),
      ...(cs.metadata?.resourceVersion ? { resourceVersion: cs.metadata.resourceVersion } : {}),
      ...(cs.metadata?.generation !== undefined ? { generation: cs.metadata.generation } : {}),
      ...(cs.spec.image ? { form: formFromCatalogSource(cs) } : {}),
      canEdit: !cs.spec.image
        ? {
            allowed: false,
            reason: cs.spec.address
              ? 'it is served from an address (spec.address), not pulled from an image: change it with kubectl'
              : 'it is not pulled from an image: change it with kubectl',
          }
        : rights.get(ns)!.edit,
      canDelete: rights.get(ns)!.del,
      canDisable: !GLOBAL_CATALOG_NAMESPACES.includes(ns)
        ? { allowed: false, reason: `${ns} is not a global catalog namespace: delete the catalog instead` }
        : isManagedByMarketplace(cs)
          ? { allowed: false, reason: "one of OpenShift's default sources: use its switch under Default sources" }
          : rights.get(ns)!.del,
      packages: index.packages
        .filter((p) => p.catalog.namespace === ns && p.catalog.name === name)
        .map((p) => p.name)
        .sort(),
      nonStandalone: index.packages
        .filter((p) => p.catalog.namespace === ns && p.catalog.name === name && p.nonStandalone)
        .map((p) => p.name)
        .sort(),
      blockedSubscriptions: blocked
        .filter((s) => s.spec.source === name && s.spec.sourceNamespace === ns)
        .map((s) => ({
          namespace: s.metadata?.namespace ?? '',
          name: s.metadata?.name ?? '',
          message: s.status?.conditions?.find((c) => c.type === 'CatalogSourcesUnhealthy')?.message,
        })),
    };
  });
  // OLM prefers higher priority; within it, by namespace and name for a stable order.
  rows.sort(
    (a, b) => b.priority - a.priority || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name),
  );
  const disabled = await listDisabledCatalogs(client, items);
  return {
    catalogSources: rows,
    globalNamespaces: globals,
    canCreate,
    disabled: disabled.catalogs,
    disabledProblems: disabled.problems,
  };
}
