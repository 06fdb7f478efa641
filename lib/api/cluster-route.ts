// The cluster a request is for (shared by the HTTP server, the routes and the browser). Every page and API route of a cluster other than home is reached
// under `/clusters/<name>/…` (the home cluster's own URLs stay as they are, and it may be named
// there too). The console's HTTP server takes the prefix off before anything else looks at the
// path, so every check and the router see the same path, and passes the cluster to the routes in
// one header, which it sets itself after dropping any copy a client sent (as it does for TLS).
// Names may hold `/` (an EKS ARN), so the prefix is matched against the configured names, the
// longest first, rather than cut at the next slash.

/** The header the HTTP server sets to the cluster named in the path; any incoming value is dropped. */
export const CLUSTER_HEADER = 'x-olm-console-cluster';

/** The page's body attribute listing the clusters' names, for the browser's API helper (lib/client). */
export const CLUSTERS_ATTRIBUTE = 'data-clusters';

export type ClusterRoute =
  | { kind: 'home'; path: string }
  | { kind: 'cluster'; cluster: string; path: string }
  | { kind: 'unknown'; message: string };

/**
 * Splits a canonical path (lib/server/security/request-path.ts) into the cluster it names and the
 * path the router routes; `/clusters/<name>` alone is that cluster's front page.
 */
export function routeCluster(path: string, names: readonly string[]): ClusterRoute {
  if (!path.startsWith('/clusters/')) return { kind: 'home', path };
  const rest = path.slice('/clusters/'.length);
  const match = [...names].sort((a, b) => b.length - a.length).find((n) => rest === n || rest.startsWith(`${n}/`));
  if (match === undefined) return { kind: 'unknown', message: unknownClusterMessage(rest, names) };
  return { kind: 'cluster', cluster: match, path: rest.slice(match.length) || '/' };
}

export function unknownClusterMessage(asked: string, names: readonly string[]): string {
  const first = asked.split('/')[0];
  return `the console serves no cluster named "${first}"; its clusters are ${names.join(', ')}`;
}

/** The path of `path` (a home-cluster path) on `cluster`; home's own paths stay unprefixed. */
export function clusterPath(cluster: string | undefined, path: string): string {
  if (!cluster) return path;
  const name = cluster.split('/').map(encodeURIComponent).join('/');
  return `/clusters/${name}${path === '/' ? '' : path}`;
}
