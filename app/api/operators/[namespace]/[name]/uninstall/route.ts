// GET /api/operators/<namespace>/<csv>/uninstall: what an uninstall removes and keeps, the
// operands by namespace, the operator's own uninstall message.
// POST the same with { deleteOperands, deleteOperatorGroup }: operands first (foreground,
// waited for), then the Subscription, the CSV, and the console-made OperatorGroup if asked.
import { z } from 'zod';
import { errorResponse, readJson } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { objectParams } from '@/lib/server/route-params';
import { uninstall, uninstallPreview } from '@/lib/server/uninstall';

export const dynamic = 'force-dynamic';

const Body = z.strictObject({ deleteOperands: z.boolean().default(false), deleteOperatorGroup: z.boolean().default(false) });

export async function GET(req: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> {
  try {
    const { namespace, name } = await objectParams(ctx);
    const { client } = requestClient(req);
    return Response.json(await uninstallPreview(client, namespace, name), { headers: { 'Cache-Control': 'no-store' } });
  } catch (err) {
    return errorResponse(err);
  }
}

export async function POST(req: Request, ctx: { params: Promise<Record<string, string>> }): Promise<Response> {
  try {
    const { namespace, name } = await objectParams(ctx);
    const { client } = writeClient(req);
    const body = await readJson(req, Body);
    return Response.json(await uninstall(client, namespace, name, body));
  } catch (err) {
    return errorResponse(err);
  }
}
