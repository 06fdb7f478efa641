// POST /api/operators/<namespace>/<csv>/uninstall { deleteOperands, deleteOperatorGroup, deleteCrds?,
// confirmation? }: operands first (foreground, waited for) — with deleteCrds every instance in the
// cluster, once `confirmation` names their count —, then the Subscription, the CSV, the console-made
// OperatorGroup if asked, and the CRDs. Its plan is POST …/uninstall/plan with the same body.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { objectParams } from '@/lib/server/route-params';
import { uninstall, UninstallBody } from '@/lib/server/uninstall';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readJson(req, UninstallBody);
  return Response.json(await uninstall(client, namespace, name, body));
});
