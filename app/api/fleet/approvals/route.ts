// GET /api/fleet/approvals[?namespace=N…]: on each cluster, every InstallPlan waiting for approval
// with what each part of it changes (Subscription, from CSV and version, to CSV and version), and
// every ClusterExtension with a newer version its channels offer that it will not move to by
// itself (pinned, or a range that leaves it out), with the version one upgrade away ({clusters:
// [{name, home, server, ok, value: {approvals, versionChanges, notes, namespaces?}} or {ok: false,
// error}]}). Where a cluster refuses the person a list of every namespace's InstallPlans, its plans
// are read from each namespace the person may use there (`namespaces`), the `namespace` names
// offered for a person who may not list namespaces checked there first. With `Accept:
// application/x-ndjson`, the same rows one a line as each cluster answers (stream.ts), and each
// cluster's shared watch started as its row is read, for the page's live events (events/route.ts).
// `?cluster=NAME` (repeatable): only those clusters' rows (cluster-filter.ts).
import type { FleetApprovalsResponse } from '@/lib/api/fleet';
import { acrossClusters } from '@/lib/server/fleet/across';
import { approvalWatches } from '@/lib/server/fleet/approval-watches';
import { clusterApprovals } from '@/lib/server/fleet/approvals';
import { onlyClusters } from '@/lib/server/fleet/cluster-filter';
import { namespaceCandidates } from '@/lib/server/fleet/namespace-candidates';
import { fleetRequest } from '@/lib/server/fleet/request';
import { fleetStream, wantsStream } from '@/lib/server/fleet/stream';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const fleet = await fleetRequest(req);
  const { person } = fleet;
  const { members, rest } = onlyClusters(fleet.members, req.url);
  const candidates = namespaceCandidates(rest);
  // One cache entry per person, cluster and set of names offered.
  const what = `approvals\n${candidates.join(',')}`;
  const read = (client: Parameters<typeof clusterApprovals>[0]) => clusterApprovals(client, candidates);
  if (wantsStream(req)) {
    // The page's form: the watch that will keep this row live starts as the row is read (not
    // before, so the first paint waits for no watch; not after, so no change falls between).
    const watches = approvalWatches();
    return fleetStream(members, person, what, (client, member) => {
      watches.prime(person, member);
      return read(client);
    });
  }
  const body: FleetApprovalsResponse = { clusters: await acrossClusters(members, person, what, read) };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
