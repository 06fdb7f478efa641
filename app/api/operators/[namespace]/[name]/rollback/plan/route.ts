// POST /api/operators/<namespace>/<csv>/rollback/plan { to }: the channel's earlier versions and the
// plan to go back to `to` (steps, the Subscription made again, and the risks: a CRD change OLM would
// refuse, fields the earlier schema prunes, what the person may not do). Nothing is written.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { RollbackBody, rollbackView } from '@/lib/server/rollback';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const { to } = await readJson(req, RollbackBody);
  return Response.json(await rollbackView(client, namespace, name, to), { headers: { 'Cache-Control': 'no-store' } });
});
