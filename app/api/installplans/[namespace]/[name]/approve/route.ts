// POST /api/installplans/<namespace>/<name>/approve { resourceVersion, clusterServiceVersionNames }:
// approves a plan that waits for approval; a plan that is no longer the one the person saw is a
// 409 saying how.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { approveInstallPlan } from '@/lib/server/day-two';
import { objectParams, SeenPlan } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readJson(req, SeenPlan);
  return Response.json(await approveInstallPlan(client, namespace, name, body));
});
