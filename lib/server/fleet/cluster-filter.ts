// `?cluster=NAME` (repeatable) on a fleet list route: only those clusters' rows. The Approvals page
// reads one cluster's row again when that cluster's watch says it changed, and the clusters it
// cannot follow live on a timer, rather than every cluster. A name the console does not serve is
// a 400 naming it, not an empty answer: the page asked for a row it thinks exists.
import { ApiError } from '../api-error';
import type { FleetMember } from './members';

export const MAX_CLUSTERS_ASKED = 500;

/** The clusters named (all when none is), and the URL without `cluster` for the route's other parameters. */
export function onlyClusters(members: FleetMember[], url: string): { members: FleetMember[]; rest: string } {
  const u = new URL(url);
  const names = u.searchParams.getAll('cluster');
  u.searchParams.delete('cluster');
  const rest = u.href;
  if (names.length === 0) return { members, rest };
  if (names.length > MAX_CLUSTERS_ASKED)
    throw new ApiError(400, 'BadRequest', `name at most ${MAX_CLUSTERS_ASKED} clusters (cluster)`);
  const served = new Set(members.map((m) => m.name));
  const unknown = names.find((n) => !served.has(n));
  if (unknown !== undefined)
    throw new ApiError(
      400,
      'BadRequest',
      `cluster: the console serves no cluster named ${JSON.stringify(unknown.slice(0, 100))} ` +
        '(the Clusters page lists those it serves)',
    );
  const wanted = new Set(names);
  return { members: members.filter((m) => wanted.has(m.name)), rest };
}
