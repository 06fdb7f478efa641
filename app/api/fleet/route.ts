// GET /api/fleet: the clusters the console serves ({clusters: [{name, home, server}]}), asking none
// of them: the navigation shows the fleet pages only when there is more than one.
import { z } from 'zod';
import type { FleetIndex } from '@/lib/api/fleet';
import { readQuery } from '@/lib/server/api-error';
import { fleetRef } from '@/lib/server/fleet/members';
import { fleetRequest } from '@/lib/server/fleet/request';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  readQuery(req.url, z.strictObject({}));
  const { members, hub } = await fleetRequest(req);
  const body: FleetIndex = { clusters: members.map(fleetRef), ...(hub.hub ? { hub } : {}) };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
