// POST /api/subscriptions/<namespace>/<name>/refresh/plan: why the Subscription is failing and the
// repair planned (failed InstallPlans, bundle unpack Jobs and ConfigMaps, the Subscription and its
// CSV deleted; the Subscription made again as it was), with what blocks it. Nothing is written.
import { z } from 'zod';
import { readOptionalJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { refreshView } from '@/lib/server/refresh';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  await readOptionalJson(req, z.strictObject({}));
  return Response.json(await refreshView(client, namespace, name), { headers: { 'Cache-Control': 'no-store' } });
});
