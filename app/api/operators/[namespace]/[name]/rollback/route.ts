// GET /api/operators/<namespace>/<csv>/rollback: the channel's versions earlier than the installed
// one. Nothing is written.
// POST { to }: plans again and applies it as the person: Subscription and CSV deleted (CRDs and
// instances stay), the Subscription made again starting at `to` under Manual approval. 409 with
// the blockers, or when no Subscription has that CSV installed any more. Its plan is POST
// …/rollback/plan with the same body.
import { z } from 'zod';
import { readJson, readQuery } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { applyRollback, RollbackBody, rollbackView } from '@/lib/server/rollback';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  readQuery(req.url, z.strictObject({}));
  const { client } = requestClient(req);
  return Response.json(await rollbackView(client, namespace, name), { headers: { 'Cache-Control': 'no-store' } });
});

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readJson(req, RollbackBody);
  return Response.json(await applyRollback(client, namespace, name, body.to));
});
