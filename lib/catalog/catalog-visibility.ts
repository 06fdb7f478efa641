// Who may see which catalog. The index is everyone's; what a person is shown of it is decided
// here, always as that person: the CatalogSources they may list, and a SelfSubjectAccessReview
// for listing PackageManifests in the catalog's namespace (what packageserver itself requires).
import type { KubeClient } from '../k8s/client';
import { SELF_SUBJECT_ACCESS_REVIEW_TYPE } from '../k8s/core-kinds';
import { isKubeError } from '../k8s/errors';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { PACKAGE_MANIFEST_TYPE, type PackageManifest } from '../olm/resources/package-manifest';

/** Where catalogs every namespace can use live (upstream OLM, OpenShift). */
export const GLOBAL_CATALOG_NAMESPACES = ['olm', 'openshift-marketplace'];

/**
 * The CatalogSources this person may list, and the namespaces that list covers ('all' when they
 * may list them cluster-wide). Namespaces they cannot list are skipped, not errors.
 */
export async function visibleCatalogSources(
  client: KubeClient,
  namespaces: readonly string[],
): Promise<{ items: CatalogSource[]; covered: 'all' | Set<string> }> {
  try {
    return { items: (await client.listAll<CatalogSource>(CATALOG_SOURCE_TYPE)).items, covered: 'all' };
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
  }
  const items: CatalogSource[] = [];
  const covered = new Set<string>();
  for (const ns of new Set(namespaces)) {
    try {
      items.push(...(await client.listAll<CatalogSource>(CATALOG_SOURCE_TYPE, { namespace: ns })).items);
      covered.add(ns);
    } catch (err) {
      if (!isKubeError(err, 403)) throw err;
    }
  }
  return { items, covered };
}

/**
 * Whether this person may list PackageManifests in `namespace`: the permission that lets them see
 * a catalog's packages there, asked of the API server rather than guessed.
 */
export async function mayListPackages(client: KubeClient, namespace: string): Promise<boolean> {
  const r = await client.create<{ apiVersion?: string; kind?: string; spec?: unknown; status?: { allowed?: boolean } }>(
    SELF_SUBJECT_ACCESS_REVIEW_TYPE,
    {
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      spec: {
        resourceAttributes: {
          verb: 'list',
          group: 'packages.operators.coreos.com',
          resource: 'packagemanifests',
          namespace,
        },
      },
    },
  );
  return r.status?.allowed === true;
}

/** One catalog's PackageManifests in its namespace, or none if the person may not list them. */
export async function catalogManifests(
  client: KubeClient,
  namespace: string,
  catalog: string,
): Promise<PackageManifest[]> {
  try {
    const { items } = await client.listAll<PackageManifest>(PACKAGE_MANIFEST_TYPE, {
      namespace,
      labelSelector: `catalog=${catalog}`,
    });
    return items.filter((pm) => pm.status?.catalogSource === catalog && pm.status.catalogSourceNamespace === namespace);
  } catch (err) {
    if (isKubeError(err, 403) || isKubeError(err, 404)) return [];
    throw err;
  }
}

/**
 * Every PackageManifest this person sees in `namespace`, grouped by the catalog (`ns/name`) it
 * comes from; undefined when they may not list them there.
 */
export async function manifestsByCatalog(
  client: KubeClient,
  namespace: string,
): Promise<Map<string, PackageManifest[]> | undefined> {
  let manifests: PackageManifest[];
  try {
    manifests = (await client.listAll<PackageManifest>(PACKAGE_MANIFEST_TYPE, { namespace })).items;
  } catch (err) {
    if (isKubeError(err, 403) || isKubeError(err, 404)) return undefined;
    throw err;
  }
  const byCatalog = new Map<string, PackageManifest[]>();
  for (const pm of manifests) {
    const key = `${pm.status.catalogSourceNamespace}/${pm.status.catalogSource}`;
    byCatalog.set(key, [...(byCatalog.get(key) ?? []), pm]);
  }
  return byCatalog;
}

/**
 * One PackageManifest by name in `namespace`, if the person may read it there and it comes from
 * the catalog `catalogNamespace/catalog`.
 */
export async function visibleManifest(
  client: KubeClient,
  name: string,
  namespace: string,
  catalogNamespace: string,
  catalog: string,
): Promise<PackageManifest | undefined> {
  let pm: PackageManifest;
  try {
    pm = await client.get<PackageManifest>(PACKAGE_MANIFEST_TYPE, name, namespace);
  } catch (err) {
    if (isKubeError(err, 403) || isKubeError(err, 404)) return undefined;
    throw err;
  }
  return pm.status?.catalogSource === catalog && pm.status.catalogSourceNamespace === catalogNamespace ? pm : undefined;
}
