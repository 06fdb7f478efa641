// The cluster a request names in its path, taken off before any check looks at the path
// (lib/api/cluster-route.ts says why). The request leaves here with the path the router routes in
// its URL and the cluster in CLUSTER_HEADER, set by this server alone: a copy the client sent is
// dropped first, whatever the path, so a request cannot name a cluster other than its path's.
// A name the settings do not give may be one the person's Open Cluster Management hub lists: the
// server asks (takeHubClusterFromPath) once the request has passed its checks, and sets the header
// only if the person's own hub view lists it.
import type { IncomingMessage } from 'node:http';
import { CLUSTER_HEADER, routeCluster, type ClusterRoute } from '../../api/cluster-route';
import { errorBody } from '../api-error';
import { isClusterName } from '../fleet/cluster-name';

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

/** A path under `/clusters/` the settings do not name, split at its first segment: a name a hub may list. */
export interface HubCandidate {
  name: string;
  /** The path the router routes, should the person's hub list `name`. */
  path: string;
}

/**
 * The cluster an unknown `/clusters/<name>/…` path may name through an OCM hub. A ManagedCluster's
 * name is a Kubernetes object's, which holds no slash: the name ends at the first one.
 */
export function hubCandidate(path: string): HubCandidate | undefined {
  if (!path.startsWith('/clusters/')) return undefined;
  const rest = path.slice('/clusters/'.length);
  const slash = rest.indexOf('/');
  const name = slash < 0 ? rest : rest.slice(0, slash);
  if (!isClusterName(name)) return undefined;
  return { name, path: slash < 0 ? '/' : rest.slice(slash) };
}

/** The Node request as the routes see it (headers as the guard left them), for asking who the person is. */
export function webRequestOf(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  return new Request('http://console.local/', { headers });
}

export interface Refusal {
  status: number;
  reason: string;
  message: string;
}

/**
 * Takes a hub-listed cluster off the path when `admit` (context-cluster.ts's hubClusterFor: the
 * person's own hub view) accepts the name for the person the request comes from; the header is
 * set only then. Returns why not otherwise (a 404 naming their clusters, or a 401 signed out).
 */
export async function takeHubClusterFromPath(
  req: IncomingMessage,
  candidate: HubCandidate,
  admit: (req: Request, name: string) => Promise<unknown>,
): Promise<Refusal | undefined> {
  delete req.headers[CLUSTER_HEADER];
  try {
    await admit(webRequestOf(req), candidate.name);
  } catch (err) {
    const { code, reason, message } = errorBody(err).error;
    return { status: code, reason, message };
  }
  req.headers[CLUSTER_HEADER] = candidate.name;
  const url = req.url ?? '/';
  const query = url.indexOf('?');
  req.url = candidate.path + (query < 0 ? '' : url.slice(query));
  return undefined;
}
