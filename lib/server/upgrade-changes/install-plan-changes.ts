// `GET /api/installplans/<ns>/<name>/changes`: for each upgrade in the plan, the installed bundle
// and the one the plan would install, each with where it was read, and what the upgrade changes;
// or why it is not known.
import type { InstallPlanChanges, SideAnswer } from '../../api/upgrade-changes';
import type { KubeClient } from '../../k8s/client';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { compareSides } from './compare-sides';
import { installPlanSides } from './install-plan-sides';
import type { ReadBundle } from './read-bundle';

export function sideAnswer(side: ReadBundle): SideAnswer {
  if ('unknown' in side) return side;
  return {
    bundle: side.bundle,
    source: side.source,
    gaps: side.gaps,
    ...(side.fallback ? { fallback: side.fallback } : {}),
  };
}

export async function installPlanChanges(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<InstallPlanChanges> {
  const [plan, subs] = await Promise.all([
    client.get<InstallPlan>(INSTALL_PLAN_TYPE, name, namespace),
    client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace }),
  ]);
  const sides = await installPlanSides(client, plan, subs.items);
  return {
    name,
    namespace,
    resourceVersion: plan.metadata?.resourceVersion ?? '',
    parts: sides.map(({ part, installed, target }) => ({
      csv: part.csv,
      change: part.change,
      ...(part.subscription ? { subscription: part.subscription } : {}),
      ...(part.from ? { from: part.from } : {}),
      ...(installed ? { installed: sideAnswer(installed) } : {}),
      ...(target ? { target: sideAnswer(target) } : {}),
      ...(installed && target ? { changes: compareSides(installed, target) } : {}),
    })),
  };
}
