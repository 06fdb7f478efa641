// A Subscription's status (docs/olm/subscriptions.md#state, docs/olm/subscriptions.md#conditions):
// its state, current and installed CSV, its plan's reference and the conditions about its
// catalog, its plan and what is installed, kept in line on every pass.

import type { ApiServer } from '../server/api-server';

import { type CatalogEntry, type CatalogSources } from './catalog-sources';

import { updateCatalogHealth, type CatalogHealth } from './catalog-health';

import { OLM, OperatorBase, now, removeCondition, setCondition, type Cond } from './operator-base';

export class SubscriptionStatusSync extends OperatorBase {
  constructor(
    api: ApiServer,
    private readonly catalogs: CatalogSources,
  ) {
    super(api);
  }

  syncSubscriptionStatus(ns: string): void {
    for (const sub of this.api.storeList(this.subs, ns)) {
      const spec = sub.spec as { source: string; sourceNamespace: string; startingCSV?: string };
      const st = { ...((sub.status ?? {}) as Record<string, unknown>) } as {
        currentCSV?: string;
        installedCSV?: string;
        state?: string;
        installPlanRef?: { name?: string } & Record<string, unknown>;
        installplan?: unknown;
        conditions?: Cond[];
        catalogHealth?: unknown[];
        lastUpdated?: string;
      };
      // A Subscription an InstallPlan created for a dependency points at that plan
      // (ensureSubscriptionInstallPlanState).
      const failForward = this.failForward(ns);
      const generatedBy = sub.metadata.annotations?.['olm.generated-by'];
      const generator = generatedBy && !st.installPlanRef ? this.exists(this.plans, ns, generatedBy) : undefined;
      if (generator) {
        st.installPlanRef = {
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'InstallPlan',
          name: generator.metadata.name,
          namespace: ns,
          uid: generator.metadata.uid,
          resourceVersion: generator.metadata.resourceVersion,
        };
        st.installplan = {
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'InstallPlan',
          name: generator.metadata.name,
          uuid: generator.metadata.uid,
        };
        // Under fail-forward a plan that failed leaves its Subscription UpgradeFailed, which
        // lets the namespace be resolved again (ensureSubscriptionInstallPlanState).
        st.state =
          failForward && (generator.status as { phase?: string } | undefined)?.phase === 'Failed'
            ? 'UpgradeFailed'
            : 'UpgradePending';
        st.currentCSV = spec.startingCSV;
        st.lastUpdated = now();
      }
      const entry = this.catalogs.entries.get(`${spec.sourceNamespace}/${spec.source}`);
      // Every catalog of the namespace and of the global namespace, as OLM lists them (sorted by
      // namespace and name run together). OLM assumes a catalog given only by address is healthy
      // (GrpcAddressRegistryReconciler has no health check): only those it serves can be unhealthy.
      const relevant = [...this.catalogs.entries.values()]
        .filter((e) => e.namespace === ns || e.namespace === this.catalogs.globalNamespace)
        .sort((a, b) =>
          a.namespace + a.name < b.namespace + b.name ? -1 : a.namespace + a.name > b.namespace + b.name ? 1 : 0,
        );
      const healthOf = (e: CatalogEntry) => e.healthy || (!e.dir && !!e.address);
      const t = now();
      const health: CatalogHealth[] = relevant.map((e) => ({
        catalogSourceRef: {
          apiVersion: `${OLM}/v1alpha1`,
          kind: 'CatalogSource',
          name: e.name,
          namespace: e.namespace,
          uid: this.exists(this.catalogSources, e.namespace, e.name)?.metadata.uid,
        },
        healthy: healthOf(e),
        lastUpdated: t,
      }));
      const updated = updateCatalogHealth(
        spec,
        { conditions: st.conditions, catalogHealth: st.catalogHealth as CatalogHealth[] | undefined },
        health,
        t,
      );
      if (updated) {
        st.conditions = updated.conditions;
        st.catalogHealth = updated.catalogHealth;
      }

      const planName = st.installPlanRef?.name;
      const plan = planName ? this.exists(this.plans, ns, planName) : undefined;
      const phase = (plan?.status as { phase?: string } | undefined)?.phase;
      if (planName && !plan) {
        if (st.state === 'UpgradePending') {
          delete st.installPlanRef;
          delete st.installplan;
          delete st.currentCSV;
          st.state = '';
        } else
          st.conditions = setCondition(st.conditions, {
            type: 'InstallPlanMissing',
            status: 'True',
            reason: 'ReferencedInstallPlanNotFound',
          });
      }
      if (plan) {
        st.conditions = removeCondition(st.conditions, 'InstallPlanMissing');
        const installed = (plan.status as { conditions?: Cond[] } | undefined)?.conditions?.find(
          (c) => c.type === 'Installed',
        );
        if (phase === 'Complete') {
          st.conditions = removeCondition(removeCondition(st.conditions, 'InstallPlanPending'), 'InstallPlanFailed');
        } else if (phase === 'Failed') {
          st.conditions = setCondition(removeCondition(st.conditions, 'InstallPlanPending'), {
            type: 'InstallPlanFailed',
            status: 'True',
            reason: installed?.reason ?? 'InstallPlanFailed',
            message: installed?.message ?? '',
          });
        } else {
          st.conditions = setCondition(st.conditions, {
            type: 'InstallPlanPending',
            status: 'True',
            reason: phase || 'InstallPlanNotYetReconciled',
            ...(installed?.message ? { message: installed.message } : {}),
          });
        }
      }
      // Deprecation of what is installed, from the catalog (docs/olm/subscriptions.md#deprecation-conditions): package, channel, bundle, roll-up.
      const pkgModel = entry?.catalog?.packages.get((sub.spec as { name: string }).name);
      const channel = (sub.spec as { channel?: string }).channel;
      const depr: Cond[] = [];
      if (pkgModel && st.installedCSV) {
        if (pkgModel.deprecation)
          depr.push({
            type: 'PackageDeprecated',
            status: 'True',
            message: `olm.package/${pkgModel.name}: ${pkgModel.deprecation}`,
          });
        const chDep = channel ? pkgModel.channels.get(channel)?.deprecation : undefined;
        if (chDep)
          depr.push({ type: 'ChannelDeprecated', status: 'True', message: `olm.channel/${channel}: ${chDep}` });
        const bDep = pkgModel.bundles.get(st.installedCSV)?.deprecation;
        if (bDep)
          depr.push({ type: 'BundleDeprecated', status: 'True', message: `olm.bundle/${st.installedCSV}: ${bDep}` });
      }
      if (depr.length)
        depr.push({ type: 'Deprecated', status: 'True', message: depr.map((c) => c.message).join('; ') });
      for (const t of ['PackageDeprecated', 'ChannelDeprecated', 'BundleDeprecated', 'Deprecated']) {
        const c = depr.find((d) => d.type === t);
        st.conditions = c ? setCondition(st.conditions, c) : removeCondition(st.conditions, t);
      }
      if (st.currentCSV) {
        if (this.exists(this.csvs, ns, st.currentCSV)) {
          st.state = 'AtLatestKnown';
          st.installedCSV = st.currentCSV;
        } else st.state = failForward && phase === 'Failed' ? 'UpgradeFailed' : 'UpgradePending';
      }
      const next = {
        ...st,
        lastUpdated:
          JSON.stringify({ ...st, lastUpdated: undefined }) ===
          JSON.stringify({ ...(sub.status as object), lastUpdated: undefined })
            ? st.lastUpdated
            : now(),
      };
      this.writeStatus(this.subs, sub, next);
    }
  }
}
