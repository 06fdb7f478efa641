// GET /api/installplans/<namespace>/<name>/changes: what each upgrade in the plan changes against
// the installed bundle, read as the person: the installed bundle from the cluster, the new one from
// the plan's steps, from the ConfigMap OLM unpacked it into, or from the catalog, each side saying
// where it was read and what of it could not be; a side that cannot be read is "unknown" with the
// reason. Answers InstallPlanChanges (lib/api/upgrade-changes.ts). Writes nothing.
import { requestClient } from '@/lib/server/context';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';
import { installPlanChanges } from '@/lib/server/upgrade-changes/install-plan-changes';

export const dynamic = 'force-dynamic';

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = requestClient(req);
  return Response.json(await installPlanChanges(client, namespace, name), { headers: { 'Cache-Control': 'no-store' } });
});
