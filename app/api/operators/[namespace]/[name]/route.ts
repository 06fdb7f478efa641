// GET /api/operators/<namespace>/<csv>: one operator — CSV, Subscription with conditions and
// upgrade status, the namespace's InstallPlans, OperatorGroup, events, and the update path.
import { errorResponse } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { operatorDetails } from '@/lib/server/operators';
import { objectParams } from '@/lib/server/route-params';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> {
  try {
    const { namespace, name } = await objectParams(ctx);
    const { client } = requestClient(req);
    return Response.json(await operatorDetails(client, namespace, name), { headers: { 'Cache-Control': 'no-store' } });
  } catch (err) {
    return errorResponse(err);
  }
}
