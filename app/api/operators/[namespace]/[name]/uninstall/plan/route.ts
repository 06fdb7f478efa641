// POST /api/operators/<namespace>/<csv>/uninstall/plan, with the body an uninstall takes: what it
// removes and keeps, the operands by namespace, the operator's own uninstall message; with
// deleteCrds also what removing its CRDs would take (every instance in the cluster, other operators
// using them). Nothing is written.
import { readOptionalJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { objectParams } from '@/lib/server/route-params';
import { UninstallBody, uninstallPreview, uninstallPreviewWithCrds } from '@/lib/server/uninstall';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readOptionalJson(req, UninstallBody);
  const preview = body.deleteCrds
    ? await uninstallPreviewWithCrds(client, namespace, name)
    : await uninstallPreview(client, namespace, name);
  return Response.json(preview, { headers: { 'Cache-Control': 'no-store' } });
});
