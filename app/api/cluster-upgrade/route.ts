// GET /api/cluster-upgrade[?target=M.N]: every installed operator against an OpenShift minor
// (default: the next minor of OpenShift's ClusterVersion), read as the person: olm.maxOpenShiftVersion
// as OLM judges it with OLM's own ClusterOperator message, Upgradeable=False, deprecations, and the
// nearest version that clears a maxOpenShiftVersion blocker.
import { z } from 'zod';
import { TARGET_VERSION, TARGET_VERSION_RULE } from '@/lib/api/cluster-upgrade';
import { readQuery } from '@/lib/server/api-error';
import { clusterUpgradeReadiness } from '@/lib/server/cluster-upgrade';
import { requestClient } from '@/lib/server/context';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({
  target: z.string().regex(TARGET_VERSION, TARGET_VERSION_RULE).optional(),
});

export const GET = route(async (req) => {
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  return Response.json(await clusterUpgradeReadiness(client, q.target), { headers: { 'Cache-Control': 'no-store' } });
});
