// GET /api/fleet/clusters: each cluster as the person sees it ({clusters: [{name, home, server, ok,
// value: {ready, readiness, kubernetesVersion, olmV0, olmV1, catalogs, catalogNotes, rights}} or
// {ok: false, error}]}): a cluster that does not answer is its own row with the reason. With
// `Accept: application/x-ndjson`, the same rows one a line as each cluster answers (stream.ts).
import { z } from 'zod';
import type { FleetClustersResponse } from '@/lib/api/fleet';
import { readQuery } from '@/lib/server/api-error';
import { acrossClusters } from '@/lib/server/fleet/across';
import { clusterSummary } from '@/lib/server/fleet/cluster-summary';
import { fleetRequest } from '@/lib/server/fleet/request';
import { fleetStream, wantsStream } from '@/lib/server/fleet/stream';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  readQuery(req.url, z.strictObject({}));
  const { members, person } = fleetRequest(req);
  if (wantsStream(req)) return fleetStream(members, person, 'summary', (client) => clusterSummary(client));
  const body: FleetClustersResponse = {
    clusters: await acrossClusters(members, person, 'summary', (client) => clusterSummary(client)),
  };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
