// The answer of `GET /api/me/pages`: which of the console's cluster-wide pages the person may use,
// shared by the route that asks the cluster and the navigation that hides the others. Types only.

/** The pages whose use rests on a cluster-wide right; the others work in any namespace one may read. */
export type ClusterPagePath = '/catalogsources' | '/cluster-upgrade' | '/settings' | '/clustercatalogs';

export interface PageAccess {
  path: ClusterPagePath;
  allowed: boolean;
  /** The right the page rests on, in words ("list CatalogSources in every namespace"). */
  needs: string;
  /** Why not, in the cluster's words (or ours when the cluster gave none); only when refused. */
  reason?: string;
}

export interface PageAccessAnswer {
  pages: PageAccess[];
}
