// GET /api/operators/<namespace>/<csv>: one operator — CSV, Subscription with conditions and
// upgrade status, the namespace's InstallPlans, OperatorGroup, events, and the update path.

import { requestClient } from '@/lib/server/context';
import { operatorDetails } from '@/lib/server/operators';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = requestClient(req);
  return Response.json(await operatorDetails(client, namespace, name), { headers: { 'Cache-Control': 'no-store' } });
});
