// GET /api/fleet/operators: one row per package with each cluster's installs of it (OLM v0
// Subscription and CSV, or OLM v1 ClusterExtension: version, channel, approval, health, upgrade
// state) and the fleet's most common version each install drifts from ({clusters, operators});
// each cluster that did not answer is in `clusters` with its reason. With `Accept:
// application/x-ndjson`, each cluster's installs (before drift, which needs the whole fleet) one a
// line as it answers; the page builds the rows (lib/api/fleet-operator-rows.ts) as they arrive.
// `?namespace=N…`: for a person who may not list every namespace's Subscriptions on a cluster, the
// names to check there (at most 20); the cluster's answer then says which namespaces were read.
import type { FleetOperatorsResponse } from '@/lib/api/fleet';
import { acrossClusters } from '@/lib/server/fleet/across';
import { clusterInstalls, fleetOperatorRows } from '@/lib/server/fleet/operator-rows';
import { namespaceCandidates } from '@/lib/server/fleet/namespace-candidates';
import { fleetRequest } from '@/lib/server/fleet/request';
import { fleetStream, wantsStream } from '@/lib/server/fleet/stream';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const { members, person } = await fleetRequest(req);
  const candidates = namespaceCandidates(req.url);
  // One cache entry per person, cluster and set of names offered.
  const what = `installs\n${candidates.join(',')}`;
  const read = (client: Parameters<typeof clusterInstalls>[0]) => clusterInstalls(client, candidates);
  if (wantsStream(req)) return fleetStream(members, person, what, read);
  const answers = await acrossClusters(members, person, what, read);
  const body: FleetOperatorsResponse = {
    clusters: answers.map((a) =>
      a.ok
        ? {
            ...a,
            value: {
              installs: a.value.installs.length,
              notes: a.value.notes,
              ...(a.value.namespaces ? { namespaces: a.value.namespaces } : {}),
            },
          }
        : a,
    ),
    operators: fleetOperatorRows(answers),
  };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
