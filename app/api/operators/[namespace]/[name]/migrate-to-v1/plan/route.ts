// POST /api/operators/<namespace>/<csv>/migrate-to-v1/plan {}: whether the operator can move from
// OLM v0 to OLM v1 and every reason it cannot, or the steps of the move with the writes each makes
// and, per step, why the person may not make it (SelfSubjectAccessReview). Nothing is written.
import { z } from 'zod';
import { readOptionalJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { analyseMigration } from '@/lib/server/olm-v1/migration';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  await readOptionalJson(req, z.strictObject({}));
  const { view } = await analyseMigration(client, namespace, name);
  return Response.json(view, { headers: { 'Cache-Control': 'no-store' } });
});
