// What OperatorHub shows for a view (keywords, facets, sort) of the list: the search's matches,
// the facet counts over them, and the filtered, sorted tiles. One definition for the browser,
// which recomputes it per keystroke, and the page's server render, which computes the first
// screen of the view in the URL so that the HTML carries a screen of tiles, not the whole list.
import { applyFilters, facetCounts, sortPackages } from '@/lib/hub/filter';
import type { HubList, PackageSummary } from '@/lib/hub/package-summary';
import { searchPackages } from '@/lib/hub/search';
import type { HubViewState } from './url-state';

/** Tiles rendered at a time; more as the person scrolls. */
export const HUB_PAGE = 24;

export function searchedOf(all: readonly PackageSummary[], q: string): PackageSummary[] {
  return searchPackages(all, q).map((h) => h.summary);
}

/** Facet counts over the matches; the OLM facet only when some ClusterCatalog is listed. */
export function countsOf(searched: readonly PackageSummary[], withV1: boolean): Record<string, Record<string, number>> {
  const c = facetCounts(searched);
  // Without a ClusterCatalog every tile is OLM v0's: the hub is then what it was before OLM v1.
  return withV1 ? c : { ...c, olm: {} };
}

export function shownOf(searched: PackageSummary[], view: HubViewState): PackageSummary[] {
  return sortPackages(applyFilters(searched, view.filters), view.sort ?? (view.q ? 'relevance' : 'name'));
}

export function listsClusterCatalogs(list: Pick<HubList, 'catalogs'>): boolean {
  return list.catalogs.some((c) => c.kind === 'ClusterCatalog');
}

/** The key a view is told apart by (paging restarts, and a first screen applies, per key). */
export function viewKeyOf(view: HubViewState): string {
  return JSON.stringify(view);
}

/**
 * The first screen of one view, as the server renders it before the browser has the whole list:
 * the catalogs, the facet counts and the first tiles, with how many there are in all.
 */
export interface HubFirstScreen {
  view: string;
  catalogs: HubList['catalogs'];
  platforms?: HubList['platforms'];
  counts: Record<string, Record<string, number>>;
  tiles: PackageSummary[];
  shown: number;
  total: number;
}

/** A tile's copy without the head bundle's name, which joins offers on the server and the browser has no use for. */
function tileOf(p: PackageSummary): PackageSummary {
  const tile = { ...p };
  delete tile.headBundle;
  return tile;
}

export function firstScreen(list: Readonly<HubList>, view: HubViewState): HubFirstScreen {
  const searched = searchedOf(list.packages, view.q);
  const shown = shownOf(searched, view);
  return {
    view: viewKeyOf(view),
    catalogs: list.catalogs,
    ...(list.platforms ? { platforms: list.platforms } : {}),
    counts: countsOf(searched, listsClusterCatalogs(list)),
    tiles: shown.slice(0, HUB_PAGE).map(tileOf),
    shown: shown.length,
    total: list.packages.length,
  };
}
