// GET /api/subscriptions/<namespace>/<name>/move?to=NS: moving the operator to a namespace of its
// own, planned (the Namespace and OperatorGroup there, the Subscription and CSV deleted here, the
// Subscription made there at the installed version), with what blocks it. Nothing is written.
// POST {to}: plans again and applies it as the person; 409 when it is blocked.
import { z } from 'zod';
import { dnsLabel, readJson, readQuery } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { applyMove, movePlan } from '@/lib/server/move';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const To = z.strictObject({ to: dnsLabel });

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { to } = readQuery(req.url, To);
  const { client } = requestClient(req);
  return Response.json(await movePlan(client, namespace, name, to), { headers: { 'Cache-Control': 'no-store' } });
});

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const { to } = await readJson(req, To);
  return Response.json(await applyMove(client, namespace, name, to));
});
