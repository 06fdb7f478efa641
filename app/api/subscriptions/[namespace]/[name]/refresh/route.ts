// POST /api/subscriptions/<namespace>/<name>/refresh: plans the repair of a failing Subscription
// again and applies it as the person (failed InstallPlans, bundle unpack Jobs and ConfigMaps, the
// Subscription and its CSV deleted; the Subscription made again as it was); 409 when it is not
// failing or is blocked. Its plan is POST …/refresh/plan.
import { z } from 'zod';
import { readOptionalJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { applyRefresh } from '@/lib/server/refresh';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  await readOptionalJson(req, z.strictObject({}));
  return Response.json(await applyRefresh(client, namespace, name));
});
