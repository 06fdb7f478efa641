// GET /api/subscriptions/<namespace>/<name>/config: the operator's pod placement and configuration
// (Subscription spec.config), what its Deployments carry, and the cluster proxy OLM passes on.
// PUT { config, seen }: replaces the config (null removes it) if it is still `seen`, what the
// person loaded; 409 when someone changed it meanwhile, 400 with each field's problem.
import { z } from 'zod';
import { readJson } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { objectParams } from '@/lib/server/route-params';
import { operatorConfig, saveOperatorConfig, SubscriptionConfigSchema } from '@/lib/server/subscription-config';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Body = z.strictObject({ config: SubscriptionConfigSchema.nullable(), seen: SubscriptionConfigSchema.nullable() });

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = requestClient(req);
  return Response.json(await operatorConfig(client, namespace, name), { headers: { 'Cache-Control': 'no-store' } });
});

export const PUT = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readJson(req, Body);
  return Response.json(await saveOperatorConfig(client, namespace, name, body.config, body.seen));
});
