// GET /api/fleet/operators: one row per package with each cluster's installs of it (OLM v0
// Subscription and CSV, or OLM v1 ClusterExtension: version, channel, approval, health, upgrade
// state) and the fleet's most common version each install drifts from ({clusters, operators});
// each cluster that did not answer is in `clusters` with its reason. With `Accept:
// application/x-ndjson`, each cluster's installs (before drift, which needs the whole fleet) one a
// line as it answers; the page builds the rows (lib/api/fleet-operator-rows.ts) as they arrive.
import { z } from 'zod';
import type { FleetOperatorsResponse } from '@/lib/api/fleet';
import { readQuery } from '@/lib/server/api-error';
import { acrossClusters } from '@/lib/server/fleet/across';
import { clusterInstalls, fleetOperatorRows } from '@/lib/server/fleet/operator-rows';
import { fleetRequest } from '@/lib/server/fleet/request';
import { fleetStream, wantsStream } from '@/lib/server/fleet/stream';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  readQuery(req.url, z.strictObject({}));
  const { members, person } = await fleetRequest(req);
  if (wantsStream(req)) return fleetStream(members, person, 'installs', (client) => clusterInstalls(client));
  const answers = await acrossClusters(members, person, 'installs', (client) => clusterInstalls(client));
  const body: FleetOperatorsResponse = {
    clusters: answers.map((a) =>
      a.ok ? { ...a, value: { installs: a.value.installs.length, notes: a.value.notes } } : a,
    ),
    operators: fleetOperatorRows(answers),
  };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
