// What the OCM checks (ocm.ts and those beside it) share: which member goes with a hub, the member's
// name and address as placeholders, and the hub objects they make and read.
import type { Target } from '../target';
import { must, until, type Obj } from './olm-read';

export const C = '/apis/cluster.open-cluster-management.io';
export const W = '/apis/work.open-cluster-management.io';
export const PLACEMENT_LABEL = 'cluster.open-cluster-management.io/placement';

export interface OcmFleet {
  /** The managed cluster other than the hub (`local-cluster`). */
  member: string;
  /** That cluster's own API server, as the seed admin. */
  memberTarget: Target;
}

const fleets = new WeakMap<Target, OcmFleet>();
/** Tells the checks which member goes with this hub. */
export function registerOcmFleet(hub: Target, fleet: OcmFleet): void {
  fleets.set(hub, fleet);
}
export function fleetOf(t: Target): OcmFleet {
  const f = fleets.get(t);
  if (!f) throw new Error(`${t.name}: no OCM fleet registered for this hub`);
  return f;
}

/** The member's name as a placeholder (the hub's own, local-cluster, is the same on both sides). */
export const as = (t: Target, cluster: string | undefined) => (cluster === fleetOf(t).member ? '<member>' : cluster);

/** The member's name and address as placeholders, everywhere in the answer. */
export function named(t: Target, value: unknown): unknown {
  const f = fleetOf(t);
  const text = JSON.stringify(value)
    .split(f.memberTarget.url)
    .join('<member-server>')
    .split(`"${f.member}"`)
    .join('"<member>"');
  return JSON.parse(text);
}

export type Condition = { type: string; status: string; reason: string; message: string; observedGeneration?: number };
export const conditions = (o: { status?: Record<string, unknown> }) =>
  ((o.status?.conditions as Condition[] | undefined) ?? [])
    .map((c) => ({ type: c.type, status: c.status, reason: c.reason, message: c.message }))
    .sort((a, b) => a.type.localeCompare(b.type));

export async function namespaceWithBinding(t: Target, ns: string): Promise<void> {
  await must(t, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  await must(t, 'POST', `${C}/v1beta2/namespaces/${ns}/managedclustersetbindings`, {
    apiVersion: 'cluster.open-cluster-management.io/v1beta2',
    kind: 'ManagedClusterSetBinding',
    metadata: { name: 'default' },
    spec: { clusterSet: 'default' },
  });
}

/** A Placement and, once the placement controller has decided, what it decided. */
export async function placement(t: Target, ns: string, name: string, spec: Record<string, unknown>) {
  await must(t, 'POST', `${C}/v1beta1/namespaces/${ns}/placements`, {
    apiVersion: 'cluster.open-cluster-management.io/v1beta1',
    kind: 'Placement',
    metadata: { name },
    spec,
  });
  const p = await until(t, `Placement ${name} decided`, async () => {
    const o = await must(t, 'GET', `${C}/v1beta1/namespaces/${ns}/placements/${name}`);
    return conditions(o).some((c) => c.type === 'PlacementSatisfied') ? o : undefined;
  });
  const decisions = (await must(
    t,
    'GET',
    `${C}/v1beta1/namespaces/${ns}/placementdecisions?labelSelector=${PLACEMENT_LABEL}=${name}`,
  )) as unknown as { items: Obj[] };
  return {
    numberOfSelectedClusters: p.status?.numberOfSelectedClusters,
    groups: ((p.status?.decisionGroups as { decisionGroupName: string; clusterCount: number }[]) ?? []).map((g) => [
      g.decisionGroupName,
      g.clusterCount,
    ]),
    conditions: conditions(p),
    decisions: decisions.items
      .map((d) => ({
        labels: Object.keys(d.metadata.labels ?? {}).sort(),
        owner: (d.metadata.ownerReferences as { kind: string; controller?: boolean }[] | undefined)?.map(
          (o) => `${o.kind} controller=${o.controller}`,
        ),
        clusters: ((d.status?.decisions as { clusterName: string; reason: string }[] | undefined) ?? [])
          .map((x) => `${as(t, x.clusterName)} reason="${x.reason}"`)
          .sort(),
      }))
      .sort((a, b) => a.clusters.join().localeCompare(b.clusters.join())),
  };
}

export const configMap = (name: string, ns = 'default') => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: ns },
  data: { greeting: 'hello' },
});

export const deployment = (name: string) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'example.com/c:1' }] } },
  },
});

export async function work(
  t: Target,
  ns: string,
  name: string,
  spec: Record<string, unknown>,
  done: (w: Obj) => boolean,
) {
  await must(t, 'POST', `${W}/v1/namespaces/${ns}/manifestworks`, {
    apiVersion: 'work.open-cluster-management.io/v1',
    kind: 'ManifestWork',
    metadata: { name },
    spec,
  });
  return until(t, `ManifestWork ${name}`, async () => {
    const w = await must(t, 'GET', `${W}/v1/namespaces/${ns}/manifestworks/${name}`);
    return done(w) ? w : undefined;
  });
}

export const workStatus = (w: Obj) => ({
  finalizers: (w.metadata as { finalizers?: string[] }).finalizers,
  conditions: conditions(w),
  manifests: ((w.status?.resourceStatus as { manifests?: Record<string, unknown>[] })?.manifests ?? []).map((m) => ({
    resourceMeta: m.resourceMeta,
    conditions: conditions({ status: m }),
    statusFeedback: m.statusFeedback,
  })),
});

export async function mwrs(
  t: Target,
  ns: string,
  name: string,
  strategy: Record<string, unknown>,
  manifests: unknown[],
) {
  await must(t, 'POST', `${W}/v1alpha1/namespaces/${ns}/manifestworkreplicasets`, {
    apiVersion: 'work.open-cluster-management.io/v1alpha1',
    kind: 'ManifestWorkReplicaSet',
    metadata: { name },
    spec: {
      placementRefs: [{ name: 'each', rolloutStrategy: strategy }],
      manifestWorkTemplate: { workload: { manifests } },
    },
  });
}

export async function mwrsWorks(t: Target, ns: string, name: string) {
  const list = (await must(
    t,
    'GET',
    `${W}/v1/manifestworks?labelSelector=work.open-cluster-management.io/manifestworkreplicaset=${ns}.${name}`,
  )) as unknown as { items: Obj[] };
  return list.items
    .map((w) => ({ cluster: as(t, w.metadata.namespace), labels: w.metadata.labels }))
    .sort((a, b) => (a.cluster ?? '').localeCompare(b.cluster ?? ''));
}
