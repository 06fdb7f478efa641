// GET /api/fleet/tokens: which clusters the person has added a token for in this session and who
// each cluster said it is (never the tokens), and whether the login token goes to every cluster.
import { z } from 'zod';
import type { FleetTokens } from '@/lib/api/fleet-tokens';
import { readQuery } from '@/lib/server/api-error';
import { clusterAccess } from '@/lib/server/context';
import { tokenRequest } from '@/lib/server/fleet/cluster-token-request';
import { fleetMembers } from '@/lib/server/fleet/members';
import { tokenTravels } from '@/lib/server/fleet/person';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  readQuery(req.url, z.strictObject({}));
  const members = fleetMembers();
  if (clusterAccess().mode !== 'token') {
    const body: FleetTokens = {
      perUser: false,
      loginTokenTravels: false,
      clusters: members.map((m) => ({ name: m.name, home: m.home })),
    };
    return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
  }
  const { tokens } = tokenRequest(req, false);
  const body: FleetTokens = {
    perUser: true,
    loginTokenTravels: tokenTravels(),
    clusters: members.map((m) => {
      const t = m.home ? undefined : tokens.get(m.name);
      return {
        name: m.name,
        home: m.home,
        ...(t ? { token: { username: t.username, addedAt: new Date(t.addedAt).toISOString() } } : {}),
      };
    }),
  };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
