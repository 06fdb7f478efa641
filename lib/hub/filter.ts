// OperatorHub filters and facet counts over package summaries. Facets are counted over the
// keyword results before the facet filters, so every count says what choosing it would show.
import { catalogKey, catalogKeys, installsWith } from './olm-offer';
import type { PackageSummary } from './package-summary';
import { byDisplayName } from './search';

const collator = new Intl.Collator('en', { sensitivity: 'base' });

export interface HubFilters {
  catalog?: string[];
  category?: string[];
  provider?: string[];
  capability?: string[];
  installMode?: string[];
  infrastructureFeature?: string[];
  validSubscription?: string[];
  /** `installed` / `notInstalled`. */
  installState?: string[];
  /** `v0` / `v1`: the OLM that can install it. */
  olm?: string[];
  /** Dependency-only operators are not tiles unless asked for. */
  includeNonStandalone?: boolean;
}

export type FacetName =
  | 'catalog'
  | 'category'
  | 'provider'
  | 'capability'
  | 'installMode'
  | 'infrastructureFeature'
  | 'validSubscription'
  | 'installState'
  | 'olm';

function values(s: PackageSummary, facet: FacetName): string[] {
  switch (facet) {
    case 'catalog':
      return catalogKeys(s);
    case 'category':
      return s.categories;
    case 'provider':
      return s.provider ? [s.provider] : [];
    case 'capability':
      return s.capability ? [s.capability] : [];
    case 'installMode':
      return s.installModes;
    case 'infrastructureFeature':
      return s.infrastructureFeatures;
    case 'validSubscription':
      return s.validSubscription;
    case 'installState':
      return [s.installedIn?.length || s.installedAs?.length ? 'installed' : 'notInstalled'];
    case 'olm':
      return installsWith(s);
  }
}

const FACETS: FacetName[] = [
  'catalog',
  'category',
  'provider',
  'capability',
  'installMode',
  'infrastructureFeature',
  'validSubscription',
  'installState',
  'olm',
];

/** Adds one to `v`'s count. */
function bump(counts: Map<string, number>, v: string): void {
  counts.set(v, (counts.get(v) ?? 0) + 1);
}

/** Adds one to each distinct value's count: a value a catalog lists twice counts its package once. */
function bumpEach(counts: Map<string, number>, vs: readonly string[]): void {
  // Lists here hold a handful of values, so looking back is cheaper than a Set per package.
  for (let i = 0; i < vs.length; i++) if (vs.indexOf(vs[i]!) === i) bump(counts, vs[i]!);
}

/**
 * How many packages each value of each facet has. Counted without a list or a Set per package and
 * facet: a big catalog's first page counts over a thousand packages, and every object made here is
 * garbage the collector pays for within the same request.
 */
export function facetCounts(list: readonly PackageSummary[]): Record<FacetName, Record<string, number>> {
  const counts = new Map(FACETS.map((f) => [f, new Map<string, number>()]));
  const catalog = counts.get('catalog')!;
  const category = counts.get('category')!;
  const provider = counts.get('provider')!;
  const capability = counts.get('capability')!;
  const installMode = counts.get('installMode')!;
  const infrastructureFeature = counts.get('infrastructureFeature')!;
  const validSubscription = counts.get('validSubscription')!;
  const installState = counts.get('installState')!;
  const olm = counts.get('olm')!;
  // Most packages of a list share a few catalog objects: each one's key is made once.
  const keyOf = new Map<PackageSummary['catalog'], string>();
  for (const s of list) {
    let own = keyOf.get(s.catalog);
    if (own === undefined) keyOf.set(s.catalog, (own = catalogKey(s.catalog)));
    if (s.clusterCatalogs?.length) bumpEach(catalog, catalogKeys(s));
    else bump(catalog, own);
    bumpEach(category, s.categories);
    if (s.provider) bump(provider, s.provider);
    if (s.capability) bump(capability, s.capability);
    bumpEach(installMode, s.installModes);
    bumpEach(infrastructureFeature, s.infrastructureFeatures);
    bumpEach(validSubscription, s.validSubscription);
    bump(installState, s.installedIn?.length || s.installedAs?.length ? 'installed' : 'notInstalled');
    if (s.catalog.kind !== 'ClusterCatalog') bump(olm, 'v0');
    if (s.clusterCatalogs?.length) bump(olm, 'v1');
  }
  return Object.fromEntries(FACETS.map((f) => [f, Object.fromEntries(counts.get(f)!)])) as Record<
    FacetName,
    Record<string, number>
  >;
}

/** Within a facet any chosen value matches (OR); across facets all must (AND). */
export function applyFilters(list: readonly PackageSummary[], f: HubFilters): PackageSummary[] {
  // The facets chosen, found once rather than for each package: most lists are asked for with none.
  const chosen = FACETS.flatMap((facet) => (f[facet]?.length ? [[facet, f[facet]] as const] : []));
  return list.filter((s) => {
    if (s.nonStandalone && !f.includeNonStandalone) return false;
    for (const [facet, wanted] of chosen) if (!values(s, facet).some((v) => wanted.includes(v))) return false;
    return true;
  });
}

export type HubSort = 'relevance' | 'name' | 'provider' | 'catalog';

/** Orders a list; `relevance` keeps the search's order. */
export function sortPackages(list: PackageSummary[], sort: HubSort): PackageSummary[] {
  const byName = byDisplayName;
  switch (sort) {
    case 'relevance':
      return list;
    case 'name':
      return [...list].sort(byName);
    case 'provider':
      return [...list].sort((a, b) => collator.compare(a.provider, b.provider) || byName(a, b));
    case 'catalog':
      return [...list].sort(
        (a, b) =>
          `${a.catalog.namespace}/${a.catalog.name}`.localeCompare(`${b.catalog.namespace}/${b.catalog.name}`) ||
          byName(a, b),
      );
  }
}
