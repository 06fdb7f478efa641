// POST /api/subscriptions/<namespace>/<name>/move/plan {to}: moving the operator to a namespace of
// its own, planned (the Namespace and OperatorGroup there, the Subscription and CSV deleted here, the
// Subscription made there at the installed version), with what blocks it. Nothing is written.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { MoveBody, movePlan } from '@/lib/server/move';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const { to } = await readJson(req, MoveBody);
  return Response.json(await movePlan(client, namespace, name, to), { headers: { 'Cache-Control': 'no-store' } });
});
