// The sandbox's adoption controller (OLM's adoption_controller.go,
// docs/olm/labels-and-annotations.md#operator-label): a Subscription names an operator
// `<package>.<namespace>`; the label `operators.coreos.com/<package>.<namespace>` goes on the
// Subscription, its installed CSV, its latest InstallPlan (and comes off the older ones), and on
// what that CSV owns (by owner reference or OLM's owner labels) and the CRDs it owns. The
// cluster-scoped Operator of that name is the Operator controller's (operator-controller.ts).
import { isCopiedCsv, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { OperatorBase } from './operator-base';
import { COMPONENT_KINDS, COMPONENT_PREFIX as PREFIX, operatorLabel, operatorNames } from './operator-components';

export class AdoptionController extends OperatorBase {
  private served(): ServedResource[] {
    return COMPONENT_KINDS.flatMap(({ group, version, resource }) => {
      const found = this.api.resources.find(group, version, resource);
      return found ? [found] : [];
    });
  }

  /** Adds (or removes) an operator's label on one object, writing only when it changes. */
  private label(r: ServedResource, o: KObject | undefined, key: string, on: boolean): void {
    if (!o || o.metadata.deletionTimestamp || key in (o.metadata.labels ?? {}) === on) return;
    const labels = { ...o.metadata.labels };
    if (on) labels[key] = '';
    else delete labels[key];
    this.api.updateObject(r, { ...o, metadata: { ...o.metadata, labels } });
  }

  /**
   * One pass over a namespace: its Subscriptions', then its CSVs' adoptions. The Operators the
   * labels name are the Operator controller's (operator-controller.ts), woken by each labelled change.
   */
  sync(ns: string): void {
    for (const sub of this.api.storeList(this.subs, ns)) {
      const pkg = (sub.spec as { name?: string } | undefined)?.name;
      if (!pkg) continue;
      const key = operatorLabel(pkg, ns);
      this.label(this.subs, sub, key, true);
      const st = (sub.status ?? {}) as {
        installedCSV?: string;
        installPlanRef?: { name?: string; namespace?: string };
      };
      if (st.installedCSV) this.label(this.csvs, this.exists(this.csvs, ns, st.installedCSV), key, true);
      const latest = st.installPlanRef?.name;
      if (latest) {
        this.label(this.plans, this.exists(this.plans, st.installPlanRef?.namespace ?? ns, latest), key, true);
        for (const p of this.api.storeList(this.plans, ns))
          if (p.metadata.name !== latest) this.label(this.plans, p, key, false);
      }
    }
    const served = this.served();
    for (const csv of this.api.storeList(this.csvs, ns)) {
      const names = operatorNames(csv.metadata.labels);
      if (isCopiedCsv(csv as unknown as ClusterServiceVersion)) {
        // A copy is never a component (an earlier OLM adopted copies; this one disowns them).
        for (const n of names) this.label(this.csvs, csv, PREFIX + n, false);
        continue;
      }
      if (!names.length) continue;
      const owned = (o: KObject) =>
        (o.metadata.ownerReferences ?? []).some(
          (x) => x.kind === 'ClusterServiceVersion' && x.uid === csv.metadata.uid,
        ) ||
        (o.metadata.labels?.['olm.owner'] === csv.metadata.name &&
          o.metadata.labels?.['olm.owner.namespace'] === ns &&
          o.metadata.labels?.['olm.owner.kind'] === 'ClusterServiceVersion');
      const crds = new Set(
        (
          (csv.spec as { customresourcedefinitions?: { owned?: { name: string }[] } } | undefined)
            ?.customresourcedefinitions?.owned ?? []
        ).map((d) => d.name),
      );
      for (const r of served) {
        for (const o of this.api.storeList(r, r.namespaced ? ns : undefined)) {
          const isCrd = r.kind === 'CustomResourceDefinition' && crds.has(o.metadata.name ?? '');
          if (!isCrd && !owned(o)) continue;
          for (const n of names)
            this.label(r, this.exists(r, o.metadata.namespace, o.metadata.name ?? ''), PREFIX + n, true);
        }
      }
    }
  }
}
