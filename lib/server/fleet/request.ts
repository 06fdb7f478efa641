// What every fleet route starts from: the configured clusters and the person asking, who must be
// signed in (per-user tokens) before any cluster is asked anything.
import { fleetMembers, type FleetMember } from './members';
import { fleetPerson, type FleetPerson } from './person';

export function fleetRequest(req: Request): { members: FleetMember[]; person: FleetPerson } {
  const members = fleetMembers();
  return { members, person: fleetPerson(req, members) };
}
