// The cluster a request names in its path, taken off before any check looks at the path
// (lib/api/cluster-route.ts says why). The request leaves here with the path the router routes in
// its URL and the cluster in CLUSTER_HEADER, set by this server alone: a copy the client sent is
// dropped first, whatever the path, so a request cannot name a cluster other than its path's.
import type { IncomingMessage } from 'node:http';
import { CLUSTER_HEADER, routeCluster, type ClusterRoute } from '../../api/cluster-route';

/**
 * Rewrites `req` for the cluster `path` (canonical) names among `names`. Returns the route: the
 * path every later check uses, or an unknown cluster the caller refuses with a 404.
 */
export function takeClusterFromPath(req: IncomingMessage, path: string, names: readonly string[]): ClusterRoute {
  delete req.headers[CLUSTER_HEADER];
  const route = routeCluster(path, names);
  if (route.kind === 'cluster') {
    req.headers[CLUSTER_HEADER] = route.cluster;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    req.url = route.path + (query < 0 ? '' : url.slice(query));
  }
  return route;
}
