// GET /api/fleet/approvals: every InstallPlan waiting for approval on each cluster, with what each
// part of it changes (Subscription, from CSV and version, to CSV and version) ({clusters: [{name,
// home, server, ok, value: {approvals, notes}} or {ok: false, error}]}). With `Accept:
// application/x-ndjson`, the same rows one a line as each cluster answers (stream.ts).
import { z } from 'zod';
import type { FleetApprovalsResponse } from '@/lib/api/fleet';
import { readQuery } from '@/lib/server/api-error';
import { acrossClusters } from '@/lib/server/fleet/across';
import { clusterApprovals } from '@/lib/server/fleet/approvals';
import { fleetRequest } from '@/lib/server/fleet/request';
import { fleetStream, wantsStream } from '@/lib/server/fleet/stream';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  readQuery(req.url, z.strictObject({}));
  const { members, person } = await fleetRequest(req);
  if (wantsStream(req)) return fleetStream(members, person, 'approvals', (client) => clusterApprovals(client));
  const body: FleetApprovalsResponse = {
    clusters: await acrossClusters(members, person, 'approvals', (client) => clusterApprovals(client)),
  };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
