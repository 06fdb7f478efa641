// GET /api/operators/<namespace>/<csv>/rollback[?to=CSV]: the channel's versions earlier than the
// installed one and, with `to`, the plan to go back to it (steps, the Subscription made again, and
// the risks: a CRD change OLM would refuse, fields the earlier schema prunes, what the person may
// not do). Nothing is written.
// POST { to }: plans again and applies it as the person: Subscription and CSV deleted (CRDs and
// instances stay), the Subscription made again starting at `to` under Manual approval. 409 with
// the blockers, or when no Subscription has that CSV installed any more.
import { z } from 'zod';
import { readJson, readQuery } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { applyRollback, rollbackView } from '@/lib/server/rollback';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const csvName = z
  .string()
  .min(1, 'must not be empty')
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9.+]*[a-z0-9])?$/, 'must be a CSV name (lowercase letters, digits, "-", "." and "+")');
const Query = z.strictObject({ to: csvName.optional() });
const Body = z.strictObject({ to: csvName });

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  return Response.json(await rollbackView(client, namespace, name, q.to), {
    headers: { 'Cache-Control': 'no-store' },
  });
});

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readJson(req, Body);
  return Response.json(await applyRollback(client, namespace, name, body.to));
});
