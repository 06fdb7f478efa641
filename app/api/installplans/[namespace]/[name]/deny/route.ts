// POST /api/installplans/<namespace>/<name>/deny { resourceVersion, clusterServiceVersionNames }:
// leaves the plan unapproved, records who declined it, and explains what that means in OLM.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { denyInstallPlan } from '@/lib/server/day-two';
import { objectParams, SeenPlan } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client, session } = writeClient(req);
  const body = await readJson(req, SeenPlan);
  return Response.json(await denyInstallPlan(client, namespace, name, body, session?.username));
});
