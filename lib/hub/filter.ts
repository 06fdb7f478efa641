// OperatorHub filters and facet counts over package summaries. Facets are counted over the
// keyword results before the facet filters, so every count says what choosing it would show.
import { catalogKeys, installsWith } from './olm-offer';
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

export function facetCounts(list: readonly PackageSummary[]): Record<FacetName, Record<string, number>> {
  const out = Object.fromEntries(FACETS.map((f) => [f, {} as Record<string, number>])) as Record<
    FacetName,
    Record<string, number>
  >;
  for (const s of list) for (const f of FACETS) for (const v of new Set(values(s, f))) out[f][v] = (out[f][v] ?? 0) + 1;
  return out;
}

/** Within a facet any chosen value matches (OR); across facets all must (AND). */
export function applyFilters(list: readonly PackageSummary[], f: HubFilters): PackageSummary[] {
  return list.filter((s) => {
    if (s.nonStandalone && !f.includeNonStandalone) return false;
    for (const facet of FACETS) {
      const chosen = f[facet];
      if (chosen?.length && !values(s, facet).some((v) => chosen.includes(v))) return false;
    }
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
