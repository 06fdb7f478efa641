// POST /api/subscriptions/<namespace>/<name>/move {to}: moves the operator to a namespace of its own
// as the person (the Namespace and OperatorGroup there, the Subscription and CSV deleted here, the
// Subscription made there at the installed version), planned again first; 409 when it is blocked.
// Its plan is POST …/move/plan with the same body.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { applyMove, MoveBody } from '@/lib/server/move';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const { to } = await readJson(req, MoveBody);
  return Response.json(await applyMove(client, namespace, name, to));
});
