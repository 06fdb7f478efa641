// Each operator's part of an InstallPlan. OLM resolves a namespace as a whole and writes one plan
// for every change it found there (a new operator, an upgrade, a dependency), so approving a
// Manual plan approves all of them; a person should see whose changes they are approving. A step
// names the CSV it installs for (`resolving`); a Subscription names the CSV it is moving to
// (`status.currentCSV`) and the one installed (`status.installedCSV`). A dependency is known by the
// Subscription step OLM's resolver adds for a CSV no Subscription asked for (step_resolver.go,
// NewSubscriptionStepResource). OLM writes the plan before the Subscriptions' status
// (catalog/operator.go, syncResolvingNamespace: ensureInstallPlan, then updateSubscriptionStatuses),
// so for a moment an upgrade's CSV is named by no Subscription and has no Subscription step: that is
// `unclaimed`, never a dependency.
import type { InstallPlan } from '../resources/install-plan';
import type { Subscription } from '../resources/subscription';

export interface PlanPart {
  csv: string;
  /** The Subscription moving to this CSV; absent for a dependency (the plan creates its Subscription) or unclaimed. */
  subscription?: string;
  /** `unclaimed`: no Subscription names it yet and the plan creates none (its status is not yet written, or it is gone). */
  change: 'install' | 'upgrade' | 'dependency' | 'unclaimed';
  /** The CSV it replaces, for an upgrade. */
  from?: string;
  steps: number;
  /** Step counts by kind, e.g. { CustomResourceDefinition: 1, Role: 2 }. */
  kinds: Record<string, number>;
}

export function planParts(plan: InstallPlan, subscriptions: readonly Subscription[]): PlanPart[] {
  const steps = plan.status?.plan ?? [];
  return (plan.spec.clusterServiceVersionNames ?? []).map((csv) => {
    const own = steps.filter((s) => s.resolving === csv);
    const kinds: Record<string, number> = {};
    for (const s of own) kinds[s.resource.kind] = (kinds[s.resource.kind] ?? 0) + 1;
    const sub =
      subscriptions.find((s) => s.status?.currentCSV === csv && s.status?.installedCSV !== csv) ??
      subscriptions.find((s) => s.status?.currentCSV === csv);
    const installed = sub?.status?.installedCSV;
    const createsSubscription = own.some((s) => s.resource.kind === 'Subscription');
    const change: PlanPart['change'] = !sub
      ? createsSubscription
        ? 'dependency'
        : 'unclaimed'
      : installed && installed !== csv
        ? 'upgrade'
        : 'install';
    return {
      csv,
      ...(sub?.metadata?.name ? { subscription: sub.metadata.name } : {}),
      change,
      ...(change === 'upgrade' ? { from: installed } : {}),
      steps: own.length,
      kinds,
    };
  });
}
