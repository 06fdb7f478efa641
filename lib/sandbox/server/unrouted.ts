// What kube-apiserver answers a path that no API it serves has a route for. The shape of the 404
// comes from which of its handlers gave up, not from what the path means: the aggregator hands a
// group-version no APIService claims to the CRD handler, which hands a group-version no CRD
// serves to the built-in APIs' go-restful container. That container owns /api and the root of
// every built-in group (/apis/apps, any version), and an aggregated server (packageserver) owns
// the group-versions it serves; under those roots the answer is a Status NotFound. A path none of
// them owns (a group the cluster does not serve, a version of a CRD's group no CRD serves, an
// unknown resource in a CRD's group-version, a non-resource path) ends at Go's http.NotFound:
// plain text "404 page not found". Seen on kube-apiserver 1.34 and compared by conformance's
// `errors/404 …` checks; authorization comes first (api-server.ts), so only someone allowed the
// request ever sees either answer.
import type { ServerResponse } from 'node:http';
import { sendNoSuchPath, sendObjectNotFound } from './http-util';
import type { ResourceTable, ServedResource } from './resources';

/** Go's http.NotFound, as kube-apiserver's last handler writes it. */
export function sendPageNotFound(res: ServerResponse): void {
  res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' });
  res.end('404 page not found\n');
}

/** Whether a Status (go-restful) or Go's plain text answers an unrouted path under this group-version. */
function ownedByApiServer(resources: ResourceTable, group: string, version: string | undefined): boolean {
  if (group === '') return true;
  const served = resources.byGroup(group);
  if (served.some((r) => !r.crd && !r.provider)) return true;
  return version !== undefined && served.some((r) => r.provider && r.versions.includes(version));
}

/**
 * The 404 for a resource path the cluster does not serve: `/api/…`, or under `/apis/<group>/<version>`
 * (version undefined for the group's own discovery path).
 */
export function sendUnrouted(
  res: ServerResponse,
  resources: ResourceTable,
  group: string,
  version: string | undefined,
): void {
  if (ownedByApiServer(resources, group, version)) return sendNoSuchPath(res);
  sendPageNotFound(res);
}

/**
 * The 404 for a subresource a served kind does not have. The CRD handler answers that the object
 * is not found, even one that exists (it has no other words for it); go-restful, its generic
 * NotFound.
 */
export function sendNoSuchSubresource(res: ServerResponse, r: ServedResource, name: string): void {
  if (r.crd) return sendObjectNotFound(res, r, name);
  sendNoSuchPath(res);
}
