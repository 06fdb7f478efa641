// Which OLM can install a hub tile's package, and the rule that joins a CatalogSource's package and
// a ClusterCatalog's into one tile. A package name alone is not enough: two catalogs may carry
// different operators, or different releases, under one name. Two offers are the same package when
// the name, the default channel's head bundle (its name and version) and the provider all match.
// Bundle images are not compared: a mirrored catalog rewrites every bundle's image to its own
// registry (the real cluster's ClusterCatalog does, docs/olm-v1/real-cluster.md#bundles) and is still
// the same content. A package either side offers without a known head bundle is never joined.
import type { CatalogInfo, PackageSummary } from './package-summary';

export type OlmMajor = 'v0' | 'v1';

export const OLM_LABELS: Record<OlmMajor, string> = { v0: 'OLM v0', v1: 'OLM v1' };

/** The OLMs that can install the package: v0 from a CatalogSource, v1 from a ClusterCatalog. */
export function installsWith(s: Pick<PackageSummary, 'catalog' | 'clusterCatalogs'>): OlmMajor[] {
  return [
    ...(s.catalog.kind === 'ClusterCatalog' ? [] : ['v0' as const]),
    ...(s.clusterCatalogs?.length ? ['v1' as const] : []),
  ];
}

/** A catalog's key in the Source facet and the catalog list: `<namespace>/<name>`, or `ClusterCatalog/<name>`. */
export function catalogKey(c: Pick<CatalogInfo, 'name' | 'namespace' | 'kind'>): string {
  // A namespace is a lowercase DNS label, so it can never read "ClusterCatalog".
  return c.kind === 'ClusterCatalog' ? `ClusterCatalog/${c.name}` : `${c.namespace}/${c.name}`;
}

/** Every catalog a tile's package comes from, as Source facet values. */
export function catalogKeys(s: Pick<PackageSummary, 'catalog' | 'clusterCatalogs'>): string[] {
  const own = catalogKey(s.catalog);
  const v1 = (s.clusterCatalogs ?? []).map((name) => catalogKey({ name, namespace: '', kind: 'ClusterCatalog' }));
  return v1.includes(own) ? v1 : [own, ...v1];
}

/** Where a tile leads: the v0 details page, or the v1 one for a package only a ClusterCatalog offers. */
export function detailsHref(p: Pick<PackageSummary, 'name' | 'catalog'>, namespace?: string): string {
  if (p.catalog.kind === 'ClusterCatalog') return v1PackageHref(p.catalog.name, p.name);
  const base = `/operatorhub/${encodeURIComponent(p.catalog.namespace)}/${encodeURIComponent(p.catalog.name)}/${encodeURIComponent(p.name)}`;
  return namespace ? `${base}?namespace=${encodeURIComponent(namespace)}` : base;
}

/** A ClusterCatalog package's details page. */
export function v1PackageHref(catalog: string, pkg: string): string {
  return `/clustercatalogs/${encodeURIComponent(catalog)}/packages/${encodeURIComponent(pkg)}`;
}

type OfferFacts = Pick<PackageSummary, 'name' | 'headBundle' | 'headVersion' | 'provider'>;

function sameKey(s: OfferFacts): string | undefined {
  return s.headBundle ? JSON.stringify([s.name, s.headBundle, s.headVersion ?? '', s.provider]) : undefined;
}

/** Whether two catalogs' offers are the same package (the rule above). */
export function sameOffer(a: OfferFacts, b: OfferFacts): boolean {
  const key = sameKey(a);
  return key !== undefined && key === sameKey(b);
}

/**
 * The hub's tiles: each CatalogSource package, marked with the ClusterCatalogs that offer the same
 * package; then each ClusterCatalog package no CatalogSource offers, as a tile of its own. A v1
 * package that matches several CatalogSources' marks each of them, as either OLM would install it.
 */
export function joinOffers(v0: readonly PackageSummary[], v1: readonly PackageSummary[]): PackageSummary[] {
  if (v1.length === 0) return v0 as PackageSummary[];
  const offeredByV1 = new Map<string, string[]>();
  for (const s of v1) {
    const key = sameKey(s);
    if (key) offeredByV1.set(key, [...(offeredByV1.get(key) ?? []), s.catalog.name]);
  }
  const joined = new Set<string>();
  const out = v0.map((s) => {
    const key = sameKey(s);
    const catalogs = key ? offeredByV1.get(key) : undefined;
    if (!catalogs) return s;
    joined.add(key!);
    return { ...s, clusterCatalogs: catalogs };
  });
  for (const s of v1) if (!joined.has(sameKey(s) ?? '')) out.push(s);
  return out;
}
