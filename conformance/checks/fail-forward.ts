// OperatorGroup `upgradeStrategy: TechPreviewUnsafeFailForward` (OLM's
// doc/design/fail-forward-upgrades.md; the catalog operator's ensureSubscriptionInstallPlanState
// and ensureSubscriptionCSVState): a Subscription whose InstallPlan failed before its CSV existed
// is `UpgradeFailed` rather than `UpgradePending`, which lets OLM resolve its namespace again.
// The plan fails the same way on both clusters: its CSV (the generated catalog's zeta) has a
// webhook type OLM's CRD refuses, an error other than Forbidden, fatal after the catalog
// operator's one-minute retry timeout. The same install under the Default strategy beside it.
import type { Check } from '../run-checks';
import { list, namespace, operatorGroup, readNamespace, settled, subscribe, until } from './olm-read';

async function failedInstall(t: Parameters<Check['run']>[0], ns: string, upgradeStrategy: string) {
  await namespace(t, ns);
  await operatorGroup(t, ns, 'og', { targetNamespaces: [ns], upgradeStrategy });
  await subscribe(t, ns, 'zeta', { name: 'zeta', channel: 'stable' });
  await until(
    t,
    `the plan in ${ns} to fail`,
    async () =>
      (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/installplans`)).some(
        (p) => p.status?.phase === 'Failed',
      )
        ? true
        : undefined,
    180_000,
  );
  // The plan's failure reaches the Subscription on the catalog operator's next pass over the
  // namespace, which a busy real OLM (this suite runs its checks side by side) may take a while
  // to make: under fail-forward, give it that while; whatever it says then is compared.
  if (upgradeStrategy !== 'Default') {
    await until(
      t,
      `the Subscription in ${ns} to take the failure in`,
      async () => {
        const s = (await list(t, `/apis/operators.coreos.com/v1alpha1/namespaces/${ns}/subscriptions`))[0];
        return (s?.status as { state?: string } | undefined)?.state !== 'UpgradePending' ? true : undefined;
      },
      120_000,
    ).catch(() => undefined);
  }
  await settled(t, ns, 10_000);
  return readNamespace(t, ns);
}

export const failForwardChecks: Check[] = [
  {
    id: 'olm/fail forward: a plan failed before its CSV leaves the Subscription UpgradeFailed (UpgradePending under Default)',
    independent: true,
    run: async (t) => {
      const [failForward, byDefault] = await Promise.all([
        failedInstall(t, 'conf-olm-fail-forward', 'TechPreviewUnsafeFailForward'),
        failedInstall(t, 'conf-olm-fail-default', 'Default'),
      ]);
      return { failForward, byDefault };
    },
  },
];
