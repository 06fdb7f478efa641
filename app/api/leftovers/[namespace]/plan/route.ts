// POST /api/leftovers/<namespace>/plan { subscription?, csv?, parts }: the cleanup of the chosen
// parts, in order, with the parts they require, blockers and notes, and each step's key to send
// back as `seen` when applying. Nothing is written.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { planLeftoverCleanup, stepKey, type PlannedCleanup } from '@/lib/server/leftovers';
import { Anchor, anchorOf, namespaceParam, Parts } from '../schema';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Body = Anchor.extend({ parts: Parts });

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const namespace = await namespaceParam(ctx);
  // A POST like every other: CSRF-checked, though it only reads.
  const { client } = writeClient(req);
  const body = await readJson(req, Body);
  const { plan } = await planLeftoverCleanup(client, namespace, anchorOf(body), body.parts);
  const planned: PlannedCleanup = { ...plan, steps: plan.steps.map((s) => ({ ...s, key: stepKey(s) })) };
  return Response.json({ plan: planned }, { headers: { 'Cache-Control': 'no-store' } });
});
