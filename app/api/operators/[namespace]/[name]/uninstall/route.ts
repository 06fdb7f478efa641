// GET /api/operators/<namespace>/<csv>/uninstall[?complete=true]: what an uninstall removes and
// keeps, the operands by namespace, the operator's own uninstall message; with complete=true also
// what removing its CRDs would take (every instance in the cluster, other operators using them).
// POST the same with { deleteOperands, deleteOperatorGroup, deleteCrds?, confirmation? }:
// operands first (foreground, waited for) — with deleteCrds every instance in the cluster, once
// `confirmation` names their count —, then the Subscription, the CSV, the console-made
// OperatorGroup if asked, and the CRDs.
import { z } from 'zod';
import { readJson, readQuery } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { objectParams } from '@/lib/server/route-params';
import { uninstall, uninstallPreview, uninstallPreviewWithCrds } from '@/lib/server/uninstall';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Body = z.strictObject({
  deleteOperands: z.boolean().default(false),
  deleteOperatorGroup: z.boolean().default(false),
  deleteCrds: z.boolean().default(false),
  confirmation: z.string().max(64).optional(),
});
const Query = z.strictObject({
  complete: z.enum(['true', 'false'], { message: 'complete is true or false' }).optional(),
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  const preview =
    q.complete === 'true'
      ? await uninstallPreviewWithCrds(client, namespace, name)
      : await uninstallPreview(client, namespace, name);
  return Response.json(preview, { headers: { 'Cache-Control': 'no-store' } });
});

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readJson(req, Body);
  return Response.json(await uninstall(client, namespace, name, body));
});
