// GET /api/installplans?namespace=N: InstallPlans with their phase, approval and operators.
import { z } from 'zod';
import { dnsLabel, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { installPlanSummary } from '@/lib/olm/status/install-plan-status';
import { planOwners } from '@/lib/server/operators';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({ namespace: dnsLabel.optional() });

export const GET = route(async (req) => {
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  const opts = q.namespace ? { namespace: q.namespace } : {};
  const [plans, subs] = await Promise.all([
    client.listAll<InstallPlan>(INSTALL_PLAN_TYPE, opts),
    client.listAll<Subscription>(SUBSCRIPTION_TYPE, opts),
  ]);
  const installPlans = plans.items
    .map((p) => ({
      namespace: p.metadata?.namespace ?? '',
      name: p.metadata?.name ?? '',
      resourceVersion: p.metadata?.resourceVersion,
      createdAt: p.metadata?.creationTimestamp,
      subscriptions: planOwners(
        p,
        subs.items.filter((s) => s.metadata?.namespace === p.metadata?.namespace),
      ),
      summary: installPlanSummary(p),
    }))
    .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  return Response.json({ installPlans }, { headers: { 'Cache-Control': 'no-store' } });
});
