// GET /api/operatorconditions/<namespace>/<csv>: the operator's OperatorCondition as a person
// reads it: each condition with its source (the operator's own, or an administrator's override),
// what OLM decides about upgrades, and whether this person may override (SelfSubjectAccessReview).
// PATCH … { action: "set", type, status, reason, message, seen } | { action: "remove", type, seen }:
// sets or removes one override as the person, with the plan it carried out. `seen` is the override
// of that type the person saw (null: none); someone else's change to it since is a 409.
import { readJson } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { applyOverride, operatorConditionView, OverrideBody } from '@/lib/server/operator-conditions';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = requestClient(req);
  return Response.json(await operatorConditionView(client, namespace, name), {
    headers: { 'Cache-Control': 'no-store' },
  });
});

export const PATCH = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readJson(req, OverrideBody);
  return Response.json(await applyOverride(client, namespace, name, body));
});
