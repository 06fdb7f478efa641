// A rollout as the hub shows it, wave by wave: which clusters the Placement put in which decision
// group (PlacementDecisions, labelled with the group's index and name: cluster/v1beta1
// types_placementdecision.go), which of them have the ManifestWork with the current template
// (OCM names each cluster's work after the ManifestWorkReplicaSet and labels it
// `<namespace>.<name>`: ocm pkg/work/hub/controllers/manifestworkreplicasetcontroller), and what
// each cluster's work agent reads back (statusFeedback values and the Available condition the
// rollout's condition rule sets: cluster-objects.ts).
import { sameTemplate } from './generations';
import { CANARY_GROUP } from './hub-objects';
import { policyBehaviour, policyCompliance, policyTerms, type Compliance, type PolicyTerms } from './operator-policy';
import { ocmStatus, progressDeadline, stopsAt, type DecidedStatus, type Stop, type StrategyLike } from './timeouts';

type Condition = {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
};
type FeedbackValue = {
  name: string;
  fieldValue: { type: string; string?: string; integer?: number; boolean?: boolean };
};

export interface PlacementDecisionLike {
  metadata: { name?: string; labels?: Record<string, string> };
  status?: { decisions?: { clusterName: string; reason?: string }[] };
}
export interface ManifestWorkLike {
  metadata: {
    name?: string;
    namespace?: string;
    generation?: number;
    labels?: Record<string, string>;
    creationTimestamp?: string;
  };
  spec?: unknown;
  status?: {
    conditions?: Condition[];
    resourceStatus?: {
      manifests?: {
        resourceMeta: { kind?: string; name?: string; namespace?: string };
        statusFeedback?: { values?: FeedbackValue[] };
        conditions?: Condition[];
      }[];
    };
  };
}
export interface ManifestWorkReplicaSetLike {
  metadata: { name?: string; namespace?: string };
  spec?: { manifestWorkTemplate?: unknown; placementRefs?: { name: string; rolloutStrategy?: StrategyLike }[] };
  status?: { conditions?: Condition[]; summary?: Record<string, number> };
}

export type ClusterState =
  /** No ManifestWork yet: an earlier wave is not healthy yet, or the hub has not got to it. */
  | 'waiting'
  /** A ManifestWork of an earlier template: this wave has not been given the change yet. */
  | 'outdated'
  /** The current template, not applied yet (or applied, its status not read back yet). */
  | 'applying'
  /** Applied, and the install's health says healthy. */
  | 'healthy'
  /** Applied, and the install's health says not healthy (yet). */
  | 'unhealthy'
  /** The work agent could not apply it. */
  | 'failed';

export interface ClusterRow {
  cluster: string;
  state: ClusterState;
  /** The feedback values by name, as strings (installedCSV, state, bundleVersion, compliant …). */
  feedback: Record<string, string>;
  /** What the work agent said, for `failed` and `unhealthy`. */
  message?: string;
  /** With an OperatorPolicy: its compliance on this cluster, in its own words (operator-policy.ts). */
  compliance?: Compliance;
  /** OCM timed it out (timeouts.ts); its set's status never says so. */
  timedOut?: TimedOut;
}

export interface TimedOut {
  /** The strategy's progressDeadline, as written. */
  deadline: string;
  /** When the deadline passed: counted from the work's creation, or a failure from Applied's last change. */
  at: string;
  /** Present when the failures counted with it are more than maxFailures: the rollout goes no further. */
  stops?: Stop;
}

export interface Wave {
  index: number;
  /** `canary` for the canary group; empty for the waves the placement controller made. */
  name: string;
  clusters: ClusterRow[];
}

export interface RolloutView {
  waves: Wave[];
  /** The hub's own conditions on the ManifestWorkReplicaSet (PlacementVerified, PlacementRolledOut …). */
  conditions: Condition[];
  /** Clusters with a work of this rollout that the Placement no longer picks (being removed). */
  leaving: string[];
  /** With an OperatorPolicy: its terms, and what it does on each cluster (operator-policy.ts). */
  operatorPolicy?: PolicyTerms & { behaviour: string[] };
}

const GROUP_INDEX = 'cluster.open-cluster-management.io/decision-group-index';
const GROUP_NAME = 'cluster.open-cluster-management.io/decision-group-name';
export const WORK_OWNER_LABEL = 'work.open-cluster-management.io/manifestworkreplicaset';

const cond = (cs: Condition[] | undefined, type: string) => cs?.find((c) => c.type === type);

function valueText(v: FeedbackValue['fieldValue']): string {
  return String(v.string ?? v.integer ?? v.boolean ?? '');
}

function row(cluster: string, work: ManifestWorkLike | undefined, template: unknown): ClusterRow {
  if (!work) return { cluster, state: 'waiting', feedback: {} };
  const feedback: Record<string, string> = {};
  let healthMessage: string | undefined;
  for (const m of work.status?.resourceStatus?.manifests ?? []) {
    for (const v of m.statusFeedback?.values ?? []) feedback[v.name] = valueText(v.fieldValue);
    const ruled = m.conditions?.find((c) => c.type === 'Available' && c.reason?.startsWith('ConditionRule'));
    if (ruled && ruled.status !== 'True') healthMessage = ruled.message;
  }
  if (!sameTemplate(work.spec, template)) return { cluster, state: 'outdated', feedback };
  const applied = cond(work.status?.conditions, 'Applied');
  const available = cond(work.status?.conditions, 'Available');
  const generation = work.metadata.generation;
  // Conditions written for an earlier generation say nothing about this template yet.
  const current = (c: Condition | undefined) => c && (generation === undefined || c.observedGeneration === generation);
  if (!current(applied)) return { cluster, state: 'applying', feedback };
  if (applied!.status === 'False') return { cluster, state: 'failed', feedback, message: applied!.message };
  if (!current(available)) return { cluster, state: 'applying', feedback };
  if (available!.status === 'True') return { cluster, state: 'healthy', feedback };
  return { cluster, state: 'unhealthy', feedback, message: healthMessage ?? available!.message };
}

export function rolloutView(
  mwrs: ManifestWorkReplicaSetLike,
  decisions: readonly PlacementDecisionLike[],
  works: readonly ManifestWorkLike[],
  now: number,
): RolloutView {
  const template = mwrs.spec?.manifestWorkTemplate;
  const strategy = mwrs.spec?.placementRefs?.[0]?.rolloutStrategy;
  const deadline = progressDeadline(strategy);
  const policy = policyTerms(template);
  // A policy's compliance is known only where the work agent put it on the cluster.
  const where = (r: ClusterRow) =>
    r.state === 'waiting' || r.state === 'failed' ? 'absent' : r.state === 'applying' ? 'applying' : 'applied';
  const withCompliance = (r: ClusterRow): ClusterRow =>
    policy ? { ...r, compliance: policyCompliance(r.feedback, where(r)) } : r;
  const byCluster = new Map(works.map((w) => [w.metadata.namespace ?? '', w]));
  const groups = new Map<number, Wave>();
  const placed = new Set<string>();
  for (const d of decisions) {
    const index = Number(d.metadata.labels?.[GROUP_INDEX] ?? 0);
    const wave = groups.get(index) ?? { index, name: d.metadata.labels?.[GROUP_NAME] ?? '', clusters: [] };
    for (const { clusterName } of d.status?.decisions ?? []) {
      if (placed.has(clusterName)) continue;
      placed.add(clusterName);
      wave.clusters.push(withCompliance(row(clusterName, byCluster.get(clusterName), template)));
    }
    groups.set(index, wave);
  }
  // OCM's own status for every decided cluster: a timeout, and whether the failures stop the rollout.
  const ocm = new Map<string, DecidedStatus & { since?: number }>();
  for (const w of groups.values())
    for (const r of w.clusters) {
      const work = byCluster.get(r.cluster);
      const current = work && sameTemplate(work.spec, template) ? work : undefined;
      const s = ocmStatus(current, deadline?.ms, now);
      ocm.set(r.cluster, { cluster: r.cluster, groupIndex: w.index, groupName: w.name, ...s });
    }
  const all = [...ocm.values()];
  for (const w of groups.values())
    w.clusters = w.clusters.map((r) => {
      const s = ocm.get(r.cluster)!;
      if (s.status !== 'TimeOut' || !deadline) return r;
      const stops = stopsAt(strategy, all, s);
      const at = new Date(s.since! + deadline.ms).toISOString();
      return { ...r, timedOut: { deadline: deadline.text, at, ...(stops ? { stops } : {}) } };
    });
  const waves = [...groups.values()]
    .filter((w) => w.clusters.length)
    .sort((a, b) => a.index - b.index)
    .map((w) => ({ ...w, clusters: w.clusters.sort((a, b) => a.cluster.localeCompare(b.cluster)) }));
  return {
    waves,
    conditions: mwrs.status?.conditions ?? [],
    leaving: [...byCluster.keys()].filter((c) => !placed.has(c)).sort(),
    ...(policy ? { operatorPolicy: { ...policy, behaviour: policyBehaviour(policy) } } : {}),
  };
}

export const isCanary = (w: Wave) => w.name === CANARY_GROUP;

/** The label selector (as a query string) that lists this rollout's ManifestWorks in every cluster namespace. */
export const workSelector = (namespace: string, name: string) => `${WORK_OWNER_LABEL}=${workOwner(namespace, name)}`;

/** The value of a ManifestWork's owner label: its set's namespace and name. */
export const workOwner = (namespace: string, name: string) => `${namespace}.${name}`;

/** The label the placement controller puts on a Placement's PlacementDecisions: the Placement's name. */
export const DECISION_PLACEMENT_LABEL = 'cluster.open-cluster-management.io/placement';
