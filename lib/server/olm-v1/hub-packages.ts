// OperatorHub's OLM v1 side: the packages of every ClusterCatalog the person may list whose content
// catalogd serves, summarised as the CatalogSources' packages are (lib/catalog/package-summary.ts).
// A catalog set Unavailable, or one catalogd is not serving, contributes nothing: operator-controller
// would not resolve from it either (docs/olm-v1/catalogs.md). A person who may not list
// ClusterCatalogs, or a cluster without OLM v1, gets nothing and no error: the hub is then the v0 hub.
import { summarizePackage } from '../../catalog/package-summary';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { sameOffer } from '../../hub/olm-offer';
import type { CatalogInfo, PackageSummary } from '../../hub/package-summary';
import type { ContentIndex } from './catalog-content';
import { readableCatalogs } from './readable-catalogs';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';
import { catalogIndexOf } from '../fleet/catalog-indexes';

export interface V1HubPackages {
  catalogs: CatalogInfo[];
  packages: PackageSummary[];
  /** Each listed catalog's bundles by package, to tell which catalog's package an extension installed. */
  bundles: ReadonlyMap<string, ContentIndex['bundles']>;
  /** Names the content the packages came from: the same key, the same packages. */
  contentKey: string;
}

// Summaries made once per content read: the content cache hands out the same index for the same
// address, digest and unpack time, so a list request only looks them up.
const summaries = new WeakMap<ContentIndex, Map<string, PackageSummary[]>>();

function summariesOf(content: ContentIndex, catalog: string): PackageSummary[] {
  const byCatalog = summaries.get(content) ?? new Map<string, PackageSummary[]>();
  summaries.set(content, byCatalog);
  const kept = byCatalog.get(catalog);
  if (kept) return kept;
  const ref: PackageSummary['catalog'] = { name: catalog, namespace: '', kind: 'ClusterCatalog' };
  const made = [...(content.catalog?.packages.values() ?? [])].map((pkg) => ({
    ...summarizePackage(pkg, ref),
    clusterCatalogs: [catalog],
    // The olm.package document's icon, served by the OLM v1 icon route.
    hasIcon: !!pkg.icon?.base64data,
  }));
  byCatalog.set(catalog, made);
  return made;
}

function catalogInfo(name: string, packages: number, problem?: string): CatalogInfo {
  return {
    name,
    namespace: '',
    kind: 'ClusterCatalog',
    displayName: name,
    publisher: '',
    state: problem ? 'NOT_SERVED' : 'SERVING',
    ...(problem ? { problem } : { source: 'catalogd' as const }),
    packages,
  };
}

/**
 * How long a list waits for a catalog's content. A first read of a big catalog takes seconds, and
 * one over the size limit fails only once it has been downloaded that far (and is read again after
 * the cache's failure time): the hub answers without it meanwhile and says so, and the read goes on,
 * so a later list finds the content in the cache.
 */
const CONTENT_WAIT_MS = 1500;

async function withinBudget(content: Promise<ContentIndex>): Promise<ContentIndex | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), CONTENT_WAIT_MS);
  });
  try {
    return await Promise.race([content, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function v1HubPackages(client: KubeClient): Promise<V1HubPackages> {
  let readable;
  try {
    readable = await readableCatalogs(client);
  } catch (err) {
    // May not list ClusterCatalogs: the hub is the v0 hub, as it was before OLM v1.
    if (isKubeError(err, 403)) return { catalogs: [], packages: [], bundles: new Map(), contentKey: 'forbidden' };
    throw err;
  }
  if (!readable) return { catalogs: [], packages: [], bundles: new Map(), contentKey: 'absent' };
  const offering = readable.filter((c) => c.facts.availabilityMode !== 'Unavailable' && c.facts.serving);
  const read = await Promise.all(offering.map(async (c) => ({ c, content: await withinBudget(c.content) })));
  const catalogs: CatalogInfo[] = [];
  const packages: PackageSummary[] = [];
  const stamps: string[] = [];
  const bundles = new Map<string, ContentIndex['bundles']>();
  for (const { c, content } of read) {
    const { name } = c.facts;
    stamps.push(`${name}@${c.facts.resolvedRef ?? ''}@${c.catalog.status?.lastUnpacked ?? ''}`);
    if (!content) {
      catalogs.push(catalogInfo(name, 0, 'its content is still being read from catalogd; reload in a moment'));
      stamps.push('reading');
      continue;
    }
    if (!content.summary.read) {
      catalogs.push(catalogInfo(name, 0, `its content could not be read: ${content.summary.why}`));
      stamps.push(`unread:${content.summary.why}`);
      continue;
    }
    const own = summariesOf(content, name);
    bundles.set(name, content.bundles);
    const { brokenPackages, problems } = content.summary;
    catalogs.push(
      catalogInfo(
        name,
        own.length,
        brokenPackages
          ? `${brokenPackages} package${brokenPackages === 1 ? ' is' : 's are'} broken and left out (${problems[0]})`
          : undefined,
      ),
    );
    packages.push(...own);
  }
  return { catalogs, packages, bundles, contentKey: stamps.join('\n') };
}

/**
 * The ClusterCatalogs offering the same package as a CatalogSource's (lib/hub/olm-offer.ts's rule),
 * judged on the hub's own tiles so that a details page and its tile always agree.
 */
export async function clusterCatalogsOffering(
  client: KubeClient,
  ref: { namespace: string; catalog: string; package: string },
  viewers: readonly string[],
): Promise<string[]> {
  const [v0, v1] = await Promise.all([catalogIndexOf(client).forUser(client, [...viewers]), v1HubPackages(client)]);
  const tile = v0.packages.find(
    (p) => p.catalog.namespace === ref.namespace && p.catalog.name === ref.catalog && p.name === ref.package,
  );
  if (!tile) return [];
  return v1.packages.filter((p) => sameOffer(p, tile)).map((p) => p.catalog.name);
}

/** The ClusterExtensions the person may list; none where they may not, or without OLM v1. */
export async function visibleExtensions(client: KubeClient): Promise<ClusterExtension[]> {
  try {
    return (await client.listAll<ClusterExtension>(CLUSTER_EXTENSION_TYPE)).items;
  } catch (err) {
    // 404: the cluster does not serve the kind (no OLM v1).
    if (isKubeError(err, 403) || isKubeError(err, 404)) return [];
    throw err;
  }
}

/**
 * The extensions by the `<ClusterCatalog>/<package>` whose bundle each has installed: an extension
 * names a package, not a catalog, so the installed bundle (status.install) says which catalogs'
 * package it is.
 */
export function extensionInstalls(
  extensions: readonly ClusterExtension[],
  v1: Pick<V1HubPackages, 'bundles'>,
): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const ext of extensions) {
    const pkg = ext.spec?.source?.catalog?.packageName;
    const bundle = ext.status?.install?.bundle?.name;
    if (!pkg || !bundle) continue;
    for (const [catalog, byPackage] of v1.bundles) {
      if (!byPackage.get(pkg)?.has(bundle)) continue;
      const key = `${catalog}/${pkg}`;
      out.set(key, [...(out.get(key) ?? []), ext.metadata?.name ?? '']);
    }
  }
  return out;
}
