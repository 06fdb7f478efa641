// The console's main navigation: each page, where it counts as current, and, for the pages that
// rest on a cluster-wide right, the path `/api/me/pages` answers for.
import type { FleetHub } from '@/lib/api/fleet';
import type { ClusterPagePath } from '@/lib/api/page-access';

export interface NavItem {
  href: string;
  label: string;
  /** Other paths that belong to this page (an install's progress belongs to OperatorHub). */
  also?: readonly string[];
  /** Set for a page the person may be refused as a whole (asked of the cluster). */
  clusterPage?: ClusterPagePath;
  /** A page across every cluster the console serves: listed only when it serves more than one. */
  fleet?: boolean;
  /**
   * A page of the home cluster as an Open Cluster Management hub: listed whenever the person may
   * list its ManagedClusters, however many clusters the console is configured with.
   */
  hub?: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { href: '/operatorhub', label: 'OperatorHub', also: ['/installs'] },
  { href: '/operators', label: 'Installed Operators', also: ['/installplans', '/leftovers', '/clusterextensions'] },
  { href: '/catalogsources', label: 'Catalog sources', clusterPage: '/catalogsources' },
  { href: '/clustercatalogs', label: 'Cluster catalogs (OLM v1)', clusterPage: '/clustercatalogs' },
  { href: '/cluster-upgrade', label: 'Cluster upgrade', clusterPage: '/cluster-upgrade' },
  { href: '/settings', label: 'Cluster settings', clusterPage: '/settings' },
  { href: '/fleet/clusters', label: 'Clusters', fleet: true },
  { href: '/fleet/operators', label: 'Fleet operators', fleet: true },
  { href: '/fleet/approvals', label: 'Fleet approvals', fleet: true },
  { href: '/fleet/rollouts', label: 'Rollouts', hub: true },
];

/** What a hub page rests on, in the words of the navigation's list of hidden pages. */
export const HUB_NEEDS = 'list ManagedClusters on the home cluster, as an Open Cluster Management hub';

/**
 * Whether the hub pages are offered, from the fleet index (`GET /api/fleet`): `pending` until it
 * answers, `yes` if it could not answer (nothing is hidden on a guess), else the hub's own word.
 */
export function hubPageState(
  index: { hub?: FleetHub } | undefined,
  failed: boolean,
): { shown: 'yes' | 'pending' } | { shown: 'no'; reason: string } {
  if (failed) return { shown: 'yes' };
  if (!index) return { shown: 'pending' };
  if (!index.hub?.hub)
    return {
      shown: 'no',
      reason: 'The home cluster serves no ManagedClusters: it is not an Open Cluster Management hub.',
    };
  return index.hub.note ? { shown: 'no', reason: `${index.hub.note}.` } : { shown: 'yes' };
}

/** The items for a console serving `clusters` clusters (the fleet's only with more than one). */
export function navItemsFor(clusters: number): readonly NavItem[] {
  return clusters > 1 ? NAV_ITEMS : NAV_ITEMS.filter((i) => !i.fleet);
}

const under = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

/** `page` on the item's own page, `true` on a page within it (details, an install), else nothing. */
export function currentState(item: NavItem, pathname: string): 'page' | 'true' | undefined {
  if (pathname === item.href) return 'page';
  return under(pathname, item.href) || item.also?.some((p) => under(pathname, p)) ? 'true' : undefined;
}
