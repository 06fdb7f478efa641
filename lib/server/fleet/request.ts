// What every fleet route starts from: the configured clusters with those the person's OCM hub
// lists (hub-members.ts), and the person asking, who must be signed in (per-user tokens) before
// any cluster is asked anything. A cluster the console will not ask (a hub-listed one without an
// https address) is refused for the person as a cluster that does not trust them is: on its row.
import type { FleetHub } from '../../api/fleet';
import { ApiError } from '../api-error';
import { withHubMembers } from './hub-members';
import { fleetMembers, type FleetMember } from './members';
import { fleetPerson, type FleetPerson } from './person';

export async function fleetRequest(
  req: Request,
): Promise<{ members: FleetMember[]; person: FleetPerson; hub: FleetHub }> {
  const configured = fleetMembers();
  const signedIn = fleetPerson(req, configured);
  const person: FleetPerson = {
    key: signedIn.key,
    client: (m) => {
      if (m.unreachable) throw new ApiError(503, 'ServiceUnavailable', `${m.name} is not asked: ${m.unreachable}`);
      return signedIn.client(m);
    },
  };
  const { members, hub } = await withHubMembers(configured, person);
  return { members, person, hub };
}
