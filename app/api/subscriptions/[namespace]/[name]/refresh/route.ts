// GET /api/subscriptions/<namespace>/<name>/refresh: why the Subscription is failing and the
// repair planned (failed InstallPlans, bundle unpack Jobs and ConfigMaps, the Subscription and its
// CSV deleted; the Subscription made again as it was), with what blocks it. Nothing is written.
// POST: plans again and applies it as the person; 409 when it is not failing or is blocked.
import { z } from 'zod';
import { errorResponse, readOptionalJson } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { applyRefresh, refreshView } from '@/lib/server/refresh';
import { objectParams } from '@/lib/server/route-params';

export const dynamic = 'force-dynamic';

export async function GET(req: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> {
  try {
    const { namespace, name } = await objectParams(ctx);
    const { client } = requestClient(req);
    return Response.json(await refreshView(client, namespace, name), { headers: { 'Cache-Control': 'no-store' } });
  } catch (err) {
    return errorResponse(err);
  }
}

export async function POST(req: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> {
  try {
    const { namespace, name } = await objectParams(ctx);
    const { client } = writeClient(req);
    await readOptionalJson(req, z.strictObject({}));
    return Response.json(await applyRefresh(client, namespace, name));
  } catch (err) {
    return errorResponse(err);
  }
}
