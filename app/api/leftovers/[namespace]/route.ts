// GET /api/leftovers/<namespace>?subscription=S&csv=C: what is left of a half-gone operator (named
// by its Subscription, its CSV or both) and why each part stays, with what the person may not
// delete. POST { subscription?, csv?, parts, seen }: the cleanup of the chosen parts, planned again
// and applied as the person when its steps are still those previewed (`seen`); a failed step stops
// it, answered with the cluster's code and reason and `details.steps` (done, failed, not done).
import { z } from 'zod';
import { readJson, readQuery } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { applyLeftoverCleanup, leftovers } from '@/lib/server/leftovers';
import { Anchor, anchorOf, namespaceParam, Parts } from './schema';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Body = Anchor.extend({ parts: Parts, seen: z.array(z.string().max(600)).max(2000) });

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const namespace = await namespaceParam(ctx);
  const q = readQuery(req.url, Anchor);
  const { client } = requestClient(req);
  return Response.json(
    { leftovers: await leftovers(client, namespace, anchorOf(q)) },
    { headers: { 'Cache-Control': 'no-store' } },
  );
});

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const namespace = await namespaceParam(ctx);
  const { client } = writeClient(req);
  const body = await readJson(req, Body);
  return Response.json(await applyLeftoverCleanup(client, namespace, anchorOf(body), body.parts, body.seen));
});
