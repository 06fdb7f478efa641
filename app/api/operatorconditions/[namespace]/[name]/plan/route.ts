// POST /api/operatorconditions/<namespace>/<csv>/plan: a dry run of PATCH …/<csv> (same body).
// Answers the exact `spec.overrides` and merge patch the change would send, the condition before
// and after, what OLM would then decide about upgrades, and what the override bypasses, in words.
// Nothing is written.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { OverrideBody, planOverride } from '@/lib/server/operator-conditions';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readJson(req, OverrideBody);
  return Response.json(await planOverride(client, namespace, name, body), {
    headers: { 'Cache-Control': 'no-store' },
  });
});
