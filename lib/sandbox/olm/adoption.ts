// The sandbox's adoption and Operator controllers (OLM's adoption_controller.go and
// operator_controller.go, docs/olm/labels-and-annotations.md#operator-label): a Subscription names an operator
// `<package>.<namespace>`; the label `operators.coreos.com/<package>.<namespace>` goes on the
// Subscription, its installed CSV, its latest InstallPlan (and comes off the older ones), and on
// what that CSV owns (by owner reference or OLM's owner labels) and the CRDs it owns; the
// cluster-scoped Operator of that name lists everything carrying the label as its components.
import { isCopiedCsv, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { OLM, OperatorBase } from './operator-base';

const PREFIX = 'operators.coreos.com/';

/** The kinds OLM looks at for components (components.go), as group/version/resource. */
const COMPONENT_KINDS: [string, string, string][] = [
  ['apps', 'v1', 'deployments'],
  ['', 'v1', 'services'],
  ['', 'v1', 'namespaces'],
  ['apiregistration.k8s.io', 'v1', 'apiservices'],
  ['apiextensions.k8s.io', 'v1', 'customresourcedefinitions'],
  [OLM, 'v1alpha1', 'subscriptions'],
  [OLM, 'v1alpha1', 'installplans'],
  [OLM, 'v1alpha1', 'clusterserviceversions'],
  [OLM, 'v2', 'operatorconditions'],
  ['', 'v1', 'secrets'],
  ['', 'v1', 'configmaps'],
  ['', 'v1', 'serviceaccounts'],
  ['rbac.authorization.k8s.io', 'v1', 'roles'],
  ['rbac.authorization.k8s.io', 'v1', 'rolebindings'],
  ['rbac.authorization.k8s.io', 'v1', 'clusterroles'],
  ['rbac.authorization.k8s.io', 'v1', 'clusterrolebindings'],
];

/** A served component kind, with the version OLM lists it at (its refs' apiVersion). */
type Component = { r: ServedResource; version: string };

/** OLM reads these kinds as metadata only (PartialObjectMetadata): their refs carry no conditions. */
const METADATA_ONLY = new Set([
  'secrets',
  'configmaps',
  'serviceaccounts',
  'roles',
  'rolebindings',
  'clusterroles',
  'clusterrolebindings',
]);

export const operatorLabel = (pkg: string, ns: string) => `${PREFIX}${pkg}.${ns}`;

/** The operator names a set of labels carries (decorators.OperatorNames). */
export function operatorNames(labels: Record<string, string> | undefined): string[] {
  return Object.keys(labels ?? {})
    .filter((k) => k.startsWith(PREFIX) && k.length > PREFIX.length)
    .map((k) => k.slice(PREFIX.length));
}

/** One entry of an Operator's `status.components.refs` (a RichReference). */
export function componentRef({ r, version }: Component, o: KObject): Record<string, unknown> {
  const ref: Record<string, unknown> = {
    kind: r.kind,
    apiVersion: r.group ? `${r.group}/${version}` : version,
    name: o.metadata.name,
    ...(o.metadata.namespace ? { namespace: o.metadata.namespace } : {}),
  };
  if (METADATA_ONLY.has(r.resource)) return ref;
  // A CSV's one condition is its phase (operator.go's csvConditionsJQ); others, their status conditions.
  if (r.kind === 'ClusterServiceVersion') {
    const st = (o.status ?? {}) as {
      phase?: string;
      reason?: string;
      message?: string;
      lastUpdateTime?: string;
      lastTransitionTime?: string;
    };
    // Type and status are always written (Go's Condition has no omitempty on them): a CSV with no
    // phase yet has type "", which the Operator CRD's required list accepts.
    const optional = {
      reason: st.reason,
      message: st.message,
      lastUpdateTime: st.lastUpdateTime,
      lastTransitionTime: st.lastTransitionTime,
    };
    return {
      ...ref,
      conditions: [
        {
          type: st.phase ?? '',
          status: 'True',
          ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined && v !== '')),
        },
      ],
    };
  }
  const conditions = (o.status as { conditions?: unknown[] } | undefined)?.conditions;
  return conditions?.length ? { ...ref, conditions } : ref;
}

/** Refs ordered as OLM orders them: kind, apiVersion, namespace, name. */
export function sortRefs(refs: Record<string, unknown>[]): Record<string, unknown>[] {
  const key = (x: Record<string, unknown>) => [x.kind, x.apiVersion, x.namespace ?? '', x.name] as string[];
  return [...refs].sort((a, b) => {
    const [ka, kb] = [key(a), key(b)];
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i]! < kb[i]! ? -1 : 1;
    return 0;
  });
}

export class AdoptionController extends OperatorBase {
  private served(): Component[] {
    return COMPONENT_KINDS.flatMap(([g, v, r]) => {
      const found = this.api.resources.find(g, v, r);
      return found ? [{ r: found, version: v }] : [];
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

  /** One pass over a namespace: its Subscriptions', then its CSVs' adoptions, then the Operators they name. */
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
      for (const { r } of served) {
        for (const o of this.api.storeList(r, r.namespaced ? ns : undefined)) {
          const isCrd = r.kind === 'CustomResourceDefinition' && crds.has(o.metadata.name ?? '');
          if (!isCrd && !owned(o)) continue;
          for (const n of names)
            this.label(r, this.exists(r, o.metadata.namespace, o.metadata.name ?? ''), PREFIX + n, true);
        }
      }
    }
    const names = new Set(
      [...this.api.storeList(this.subs, ns), ...this.api.storeList(this.csvs, ns)].flatMap((o) =>
        operatorNames(o.metadata.labels),
      ),
    );
    for (const name of names) this.syncOperator(name, served);
  }

  /** The Operator named `name`: made once something carries its label, its components listed. */
  private syncOperator(name: string, served: Component[]): void {
    const operators = this.res(OLM, 'v1', 'operators');
    const key = PREFIX + name;
    const refs: Record<string, unknown>[] = [];
    const ns = name.slice(name.lastIndexOf('.') + 1);
    for (const c of served) {
      for (const o of this.api.storeList(c.r, c.r.namespaced ? ns : undefined))
        if (key in (o.metadata.labels ?? {})) refs.push(componentRef(c, o));
    }
    let op = this.exists(operators, undefined, name);
    if (!op) {
      if (!refs.length) return;
      op = this.api.createObject(operators, {
        apiVersion: `${OLM}/v1`,
        kind: 'Operator',
        metadata: { name },
        spec: {},
      });
    }
    const status = {
      components: { labelSelector: { matchExpressions: [{ key, operator: 'Exists' }] }, refs: sortRefs(refs) },
    };
    this.writeStatus(operators, op, status);
  }
}
