// The clusters a page is rendered with (app/layout.tsx): every cluster this person may switch to,
// home first (the configured ones, then those their OCM hub lists, read as them), and the one the
// page is for, as the HTTP server named it. A cluster the hub lists without a usable address, or
// does not report Available, gets a page saying why instead of one that waits on it.
import { CLUSTER_HEADER, unknownClusterMessage } from '../api/cluster-route';
import { hubMemberBlocked, withHubMembers } from './fleet/hub-members';
import { fleetMembers, type FleetMember } from './fleet/members';
import { fleetPerson } from './fleet/person';

export interface PageClusters {
  /** Every cluster the person may ask for, home first; empty when the settings cannot be read. */
  names: string[];
  /** The cluster the page is for (undefined: home). */
  rendered?: string;
  /** Why the page's cluster is not asked: its content gives way to this. */
  blocked?: { cluster: string; reason: string };
}

/**
 * How long a page waits for the person's hub view before it is rendered with the configured
 * clusters alone: a home cluster that is slow to answer must not hold up every page. A page of a
 * hub-listed cluster never waits here, since the HTTP server read the same view a moment before.
 */
const HUB_WAIT_MS = 2_000;

async function personsMembers(configured: FleetMember[], headers: Headers): Promise<FleetMember[]> {
  let person;
  try {
    person = fleetPerson(new Request('http://console.local/', { headers }), configured);
  } catch {
    // Signed out: the configured clusters, as before there was a hub.
    return configured;
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), HUB_WAIT_MS);
  });
  try {
    const read = await Promise.race([withHubMembers(configured, person), late]);
    return read?.members ?? configured;
  } finally {
    clearTimeout(timer);
  }
}

export async function pageClusters(headers: Headers): Promise<PageClusters> {
  let configured;
  try {
    configured = fleetMembers();
  } catch {
    // Settings the fleet cannot read leave the home cluster alone; the fleet pages say what is wrong.
    return { names: [] };
  }
  const members = await personsMembers(configured, headers);
  const names = members.map((m) => m.name);
  const asked = headers.get(CLUSTER_HEADER);
  if (!asked) return { names };
  const member = members.find((m) => m.name === asked);
  if (!member)
    // The server admitted it a moment ago; the person's hub view changed since (or a page was reached without it).
    return { names, blocked: { cluster: asked, reason: unknownClusterMessage(asked, names) } };
  if (member.home) return { names };
  const reason = hubMemberBlocked(member);
  return { names, rendered: member.name, ...(reason ? { blocked: { cluster: member.name, reason } } : {}) };
}
