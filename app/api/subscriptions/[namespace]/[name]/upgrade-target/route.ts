// GET /api/subscriptions/<namespace>/<name>/upgrade-target: the Subscription's update path (one
// InstallPlan a hop), its upgrade target if any (who set it, when), the hops up to it and what the
// approver does now, and whether an approver is configured.
// PUT { target: CSV }: sets the target as the person (Manual Subscriptions only, a version on the
// path, and only for someone who may approve the namespace's InstallPlans). DELETE: cancels it.
// The home cluster's only: the approver acting on targets is the console's own identity there.
import { z } from 'zod';
import { readJson, readOptionalJson } from '@/lib/server/api-error';
import { homeClusterOnly, requestClient, writeClient } from '@/lib/server/context';
import { objectParams } from '@/lib/server/route-params';
import { clearUpgradeTarget, setUpgradeTarget, upgradeTargetView } from '@/lib/server/upgrade-target';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Body = z.strictObject({
  target: z
    .string()
    .min(1, 'must not be empty')
    .max(253)
    .regex(/^[a-z0-9]([-a-z0-9.+]*[a-z0-9])?$/, 'must be a CSV name'),
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  homeClusterOnly(req, 'An upgrade target');
  const { client } = requestClient(req);
  return Response.json(await upgradeTargetView(client, namespace, name), {
    headers: { 'Cache-Control': 'no-store' },
  });
});

export const PUT = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  homeClusterOnly(req, 'An upgrade target');
  const { client } = writeClient(req);
  const body = await readJson(req, Body);
  return Response.json(await setUpgradeTarget(client, namespace, name, body.target));
});

export const DELETE = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  homeClusterOnly(req, 'An upgrade target');
  const { client } = writeClient(req);
  await readOptionalJson(req, z.strictObject({}));
  return Response.json(await clearUpgradeTarget(client, namespace, name));
});
