// The two bundles of each upgrade an InstallPlan holds, read as the person: the installed one from
// the cluster (installed-v0.ts) and the one the plan would install (plan-target.ts). A plan that
// installs an operator for the first time, or a dependency, has nothing installed to compare with.
import type { KubeClient } from '../../k8s/client';
import type { InstallPlan } from '../../olm/resources/install-plan';
import type { Subscription } from '../../olm/resources/subscription';
import { planParts, type PlanPart } from '../../olm/status/plan-parts';
import { installedV0Bundle } from './installed-v0';
import { planTargetBundle } from './plan-target';
import type { ReadBundle } from './read-bundle';

export interface PlanUpgradeSides {
  part: PlanPart;
  installed?: ReadBundle;
  target?: ReadBundle;
}

export async function installPlanSides(
  client: KubeClient,
  plan: InstallPlan,
  subs: readonly Subscription[],
): Promise<PlanUpgradeSides[]> {
  const namespace = plan.metadata?.namespace ?? '';
  return Promise.all(
    planParts(plan, subs).map(async (part) => {
      const sub = subs.find((s) => s.metadata?.name === part.subscription);
      if (part.change !== 'upgrade' || !part.from || !sub) return { part };
      const [installed, target] = await Promise.all([
        installedV0Bundle(client, namespace, part.from),
        planTargetBundle(client, plan, part.csv, sub),
      ]);
      return { part, installed, target };
    }),
  );
}
