// POST /api/installplans/<namespace>/<name>/approve { resourceVersion }: approves a plan that
// waits for approval; a plan that changed since the person saw it is a 409 saying how.
import { errorResponse, readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { approveInstallPlan } from '@/lib/server/day-two';
import { objectParams, Optimistic } from '@/lib/server/route-params';

export const dynamic = 'force-dynamic';

export async function POST(req: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> {
  try {
    const { namespace, name } = await objectParams(ctx);
    const { client } = writeClient(req);
    const body = await readJson(req, Optimistic);
    return Response.json(await approveInstallPlan(client, namespace, name, body.resourceVersion));
  } catch (err) {
    return errorResponse(err);
  }
}
