// GET /api/installplans/<namespace>/<name>: the plan, its summary, the Subscriptions it belongs
// to (colocated operators share plans), each operator's part of it, and its steps grouped by kind
// with their manifests.
import type { InstallPlanDetails } from '@/lib/api/install-plans';

import { requestClient } from '@/lib/server/context';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { groupSteps, installPlanSummary, parseStepManifest } from '@/lib/olm/status/install-plan-status';
import { planParts } from '@/lib/olm/status/plan-parts';
import { DENIED_ANNOTATION } from '@/lib/server/day-two';
import { planOwners, trimmed } from '@/lib/server/operators';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

function deniedOf(plan: InstallPlan): { at?: string; by?: string } | undefined {
  const raw = plan.metadata?.annotations?.[DENIED_ANNOTATION];
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as { at?: string; by?: string };
  } catch {
    return { at: raw };
  }
}

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = requestClient(req);
  const [plan, subs] = await Promise.all([
    client.get<InstallPlan>(INSTALL_PLAN_TYPE, name, namespace),
    client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace }),
  ]);
  const groups = groupSteps(plan).map((g) => ({
    ...g,
    steps: g.steps.map((s) => ({ ...s, manifest: parseStepManifest(s) })),
  }));
  const body: InstallPlanDetails = {
    plan: trimmed(plan),
    summary: installPlanSummary(plan),
    subscriptions: planOwners(plan, subs.items),
    denied: deniedOf(plan),
    stepGroups: groups,
    parts: planParts(plan, subs.items),
  };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
