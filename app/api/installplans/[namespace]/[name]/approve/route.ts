// POST /api/installplans/<namespace>/<name>/approve { resourceVersion, clusterServiceVersionNames }:
// approves a plan that waits for approval; a plan that is no longer the one the person saw is a
// 409 saying how.
import { errorResponse, readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { approveInstallPlan } from '@/lib/server/day-two';
import { objectParams, SeenPlan } from '@/lib/server/route-params';

export const dynamic = 'force-dynamic';

export async function POST(req: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> {
  try {
    const { namespace, name } = await objectParams(ctx);
    const { client } = writeClient(req);
    const body = await readJson(req, SeenPlan);
    return Response.json(await approveInstallPlan(client, namespace, name, body));
  } catch (err) {
    return errorResponse(err);
  }
}
