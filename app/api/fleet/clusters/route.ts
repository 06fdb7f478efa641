// GET /api/fleet/clusters: each cluster as the person sees it ({clusters: [{name, home, server, ok,
// value: {ready, readiness, kubernetesVersion, olmV0, olmV1, catalogs, catalogNotes, rights}} or
// {ok: false, error}], hub?}): a cluster that does not answer is its own row with the reason; on an
// OCM hub each row has the hub's view of it (`managed`) and `hub.note` says why none is listed. With
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
  const { members, person, hub } = await fleetRequest(req);
  if (wantsStream(req))
    return fleetStream(
      members,
      person,
      'summary',
      (client) => clusterSummary(client),
      undefined,
      hub.hub ? hub : undefined,
    );
  const body: FleetClustersResponse = {
    clusters: await acrossClusters(members, person, 'summary', (client) => clusterSummary(client)),
    ...(hub.hub ? { hub } : {}),
  };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
