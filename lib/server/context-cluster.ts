// Which cluster of the fleet a request is for. The HTTP server names it in CLUSTER_HEADER after
// taking `/clusters/<name>` off the path (lib/server/http/cluster-prefix.ts), having dropped any
// copy a client sent. A name the console's settings give is taken as it is. A name only an Open
// Cluster Management hub gives (fleet/hub-members.ts) is taken only as this person's own hub view
// lists it, read with their identity and kept briefly per person: the server checks it before
// anything else looks at the request, and every route checks it again (route.ts calls
// admitRequestCluster), so a route reached some other way (`next dev`) never takes a name on a
// header's say-so, and nobody is served a cluster that only someone else's hub view lists.
import { CLUSTER_HEADER, unknownClusterMessage } from '../api/cluster-route';
import { ApiError } from './api-error';
import { withHubMembers } from './fleet/hub-members';
import { fleetMembers, type FleetMember } from './fleet/members';
import { fleetPerson } from './fleet/person';

// The hub members admitted per request, on globalThis: the route wrapper that admits and the
// context that reads may come from different copies of these modules (one per route bundle).
// Keyed by the request object, so an admission never outlives or leaves its request.
const ADMITTED = Symbol.for('olm-console.admitted-hub-clusters');
const shared = globalThis as { [ADMITTED]?: WeakMap<Request, FleetMember> };
const admitted = (): WeakMap<Request, FleetMember> => (shared[ADMITTED] ??= new WeakMap());

/**
 * The cluster `name` as the hub lists it to the person `req` comes from: a 401 when they are not
 * signed in (nobody's hub view is read for a stranger), a 404 naming the clusters they may ask
 * for when their hub does not list it (a hub they may not read lists nothing).
 */
export async function hubClusterFor(req: Request, name: string): Promise<FleetMember> {
  const configured = fleetMembers();
  const person = fleetPerson(req, configured);
  const { members } = await withHubMembers(configured, person);
  const member = members.find((m) => m.name === name && m.managed?.source === 'hub');
  if (!member)
    throw new ApiError(
      404,
      'NotFound',
      unknownClusterMessage(
        name,
        members.map((m) => m.name),
      ),
    );
  return member;
}

/**
 * Checks the cluster the request's header names against the person's hub view when the settings
 * do not name it, before any route looks at the request; requestCluster then finds it.
 */
export async function admitRequestCluster(req: Request): Promise<void> {
  const name = req.headers.get(CLUSTER_HEADER);
  if (!name || fleetMembers().some((m) => m.name === name)) return;
  admitted().set(req, await hubClusterFor(req, name));
}

/**
 * The fleet member the request is for when it is not the home cluster: one the settings name, or
 * one admitted for this very request from the person's hub view; undefined for home, whose
 * requests never read the fleet's settings. Any other name is a 404, for a route reached without
 * the HTTP server too.
 */
export function requestCluster(req: Request): FleetMember | undefined {
  const name = req.headers.get(CLUSTER_HEADER);
  if (!name) return undefined;
  const members = fleetMembers();
  const member = members.find((m) => m.name === name) ?? admitted().get(req);
  if (member?.name !== name)
    throw new ApiError(
      404,
      'NotFound',
      unknownClusterMessage(
        name,
        members.map((m) => m.name),
      ),
    );
  return member.home ? undefined : member;
}

/**
 * Refuses a request for a cluster other than home, for what only the home cluster holds (the
 * console's own records, kept with its identity there).
 */
export function homeClusterOnly(req: Request, what: string): void {
  const member = requestCluster(req);
  if (member)
    throw new ApiError(
      400,
      'BadRequest',
      `${what} is kept on the console's home cluster only; ask for it without /clusters/${member.name} in the path`,
    );
}
