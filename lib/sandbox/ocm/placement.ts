// OCM v1.0.0's placement controller, for what the sandbox's clusters need: a Placement's eligible
// clusters are those of the ManagedClusterSets bound to its namespace (ManagedClusterSetBinding,
// narrowed to `spec.clusterSets` when it names any), without a NoSelect taint it does not
// tolerate, matching any one of its predicates (label selector and claim selector together);
// `numberOfClusters` keeps that many, the ones already decided first (OCM's Steady prioritizer),
// then by name. The decision is written as OCM writes it: decision groups from
// `decisionStrategy.groupStrategy` (named groups by cluster selector, the rest in groups of
// `clustersPerDecisionGroup`), one PlacementDecision `<placement>-decision-<n>` per group, owned
// by the Placement and labelled with its name and group, and the Placement's status. OCM's other
// prioritizers (Balance, resource usage, add-on scores) and CEL selectors are not emulated
// (docs/sandbox.md#open-cluster-management).
import { matchesLabelSelector } from '../../olm/resources/label-selector';
import type { LabelSelector, LabelSelectorRequirement } from '../../olm/resources/common';
import { setCondition, type Condition } from '../olm-v1/conditions';
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { CLUSTER_GROUP } from './crds';
import {
  createOrUpdate,
  DECISION_GROUP_INDEX_LABEL,
  DECISION_GROUP_NAME_LABEL,
  isTrue,
  PLACEMENT_LABEL,
  writeStatus,
  type Conditions,
  type OcmKinds,
} from './objects';
import { clustersOfSet, type ClusterSet } from './registration';

interface ClusterSelector {
  labelSelector?: LabelSelector;
  claimSelector?: { matchExpressions?: LabelSelectorRequirement[] };
}

interface PlacementSpec {
  clusterSets?: string[];
  numberOfClusters?: number;
  predicates?: { requiredClusterSelector?: ClusterSelector }[];
  tolerations?: { key?: string; operator?: string; value?: string; effect?: string }[];
  decisionStrategy?: {
    groupStrategy?: {
      decisionGroups?: { groupName: string; groupClusterSelector?: ClusterSelector }[];
      clustersPerDecisionGroup?: number | string;
    };
  };
}

type ManagedCluster = KObject & {
  spec?: { taints?: { key: string; value?: string; effect: string }[] };
  status?: { clusterClaims?: { name: string; value: string }[] };
};

/** A label or claim selector on one cluster (claims are matched as labels named by the claim). */
function selects(sel: ClusterSelector | undefined, c: ManagedCluster): boolean {
  if (!sel) return true;
  if (sel.labelSelector && !matchesLabelSelector(sel.labelSelector, c.metadata.labels)) return false;
  const claims = Object.fromEntries((c.status?.clusterClaims ?? []).map((x) => [x.name, x.value]));
  if (sel.claimSelector && !matchesLabelSelector({ matchExpressions: sel.claimSelector.matchExpressions }, claims))
    return false;
  return true;
}

function tolerated(c: ManagedCluster, tolerations: PlacementSpec['tolerations']): boolean {
  for (const t of c.spec?.taints ?? []) {
    if (t.effect !== 'NoSelect' && t.effect !== 'NoSelectIfNew') continue;
    const ok = (tolerations ?? []).some(
      (x) =>
        (!x.effect || x.effect === t.effect) &&
        (x.operator === 'Exists' ? !x.key || x.key === t.key : x.key === t.key && (x.value ?? '') === (t.value ?? '')),
    );
    if (!ok) return false;
  }
  return true;
}

/** `clustersPerDecisionGroup` as a count: an integer, or a percentage of the selected clusters (rounded up). */
function groupLength(v: number | string | undefined, total: number): number {
  if (v === undefined || v === '') return Math.max(total, 1);
  if (typeof v === 'number') return Math.max(v, 1);
  const m = /^(\d+)%$/.exec(v);
  if (m) return Math.max(Math.ceil((Number(m[1]) * total) / 100), 1);
  return Math.max(Number(v) || total, 1);
}

function chunk<T>(xs: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

export class Placements {
  constructor(
    private readonly hub: ApiServer,
    private readonly kinds: OcmKinds,
  ) {}

  names(): { namespace: string; name: string }[] {
    return this.hub
      .storeList(this.kinds.placements)
      .map((p) => ({ namespace: p.metadata.namespace!, name: p.metadata.name! }));
  }

  reconcile(namespace: string, name: string): void {
    const p = this.hub.storeGet(this.kinds.placements, namespace, name);
    if (!p || p.metadata.deletionTimestamp) return;
    const spec = (p.spec ?? {}) as PlacementSpec;
    const bindings = this.hub
      .storeList(this.kinds.bindings, namespace)
      .filter((b) => isTrue((b.status as { conditions?: Conditions })?.conditions, 'Bound'))
      .map((b) => (b.spec as { clusterSet?: string })?.clusterSet ?? '');
    const eligibleSets = spec.clusterSets?.length ? bindings.filter((s) => spec.clusterSets!.includes(s)) : bindings;
    const all = this.hub.storeList(this.kinds.managedClusters) as ManagedCluster[];
    const inSets = new Map<string, ManagedCluster>();
    for (const setName of eligibleSets) {
      const set = this.hub.storeGet(this.kinds.clusterSets, undefined, setName) as ClusterSet | undefined;
      if (set) for (const c of clustersOfSet(set, all)) inSets.set(c.metadata.name!, c);
    }
    const feasible = [...inSets.values()]
      .filter((c) => tolerated(c, spec.tolerations))
      .filter((c) => !spec.predicates?.length || spec.predicates.some((x) => selects(x.requiredClusterSelector, c)));

    const previous = new Set(this.decidedClusters(namespace, name));
    const ranked = [...feasible].sort(
      (a, b) =>
        Number(previous.has(b.metadata.name!)) - Number(previous.has(a.metadata.name!)) ||
        a.metadata.name!.localeCompare(b.metadata.name!),
    );
    const chosen = (spec.numberOfClusters !== undefined ? ranked.slice(0, spec.numberOfClusters) : ranked).sort(
      (a, b) => a.metadata.name!.localeCompare(b.metadata.name!),
    );
    const unscheduled = spec.numberOfClusters !== undefined ? Math.max(spec.numberOfClusters - chosen.length, 0) : 0;

    // Decision groups: the named ones first, by their selectors, then the rest, each cut to length.
    // A cluster goes in one group only: the first named group whose selector it matches, else the
    // rest (ocm pkg/placement/controllers/scheduling filterClustersBySelector takes it out).
    const strategy = spec.decisionStrategy?.groupStrategy;
    const length = groupLength(strategy?.clustersPerDecisionGroup, chosen.length);
    const groups: { name: string; clusters: string[] }[] = [];
    const left = new Set(chosen.map((c) => c.metadata.name!));
    for (const g of strategy?.decisionGroups ?? []) {
      const matched = chosen
        .filter((c) => left.has(c.metadata.name!) && selects(g.groupClusterSelector, c))
        .map((c) => c.metadata.name!);
      for (const m of matched) left.delete(m);
      for (const part of chunk(matched, length)) groups.push({ name: g.groupName, clusters: part });
    }
    for (const part of chunk([...left], length)) groups.push({ name: '', clusters: part });
    if (!groups.length) groups.push({ name: '', clusters: [] });

    const decisionGroups = groups.map((g, i) => {
      const decisionName = `${name}-decision-${i + 1}`;
      createOrUpdate(this.hub, this.kinds.decisions, {
        apiVersion: `${CLUSTER_GROUP}/v1beta1`,
        kind: 'PlacementDecision',
        metadata: {
          name: decisionName,
          namespace,
          labels: {
            [PLACEMENT_LABEL]: name,
            [DECISION_GROUP_NAME_LABEL]: g.name,
            [DECISION_GROUP_INDEX_LABEL]: String(i),
          },
          ownerReferences: [
            {
              apiVersion: `${CLUSTER_GROUP}/v1beta1`,
              kind: 'Placement',
              name,
              uid: p.metadata.uid!,
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
      });
      const decision = this.hub.storeGet(this.kinds.decisions, namespace, decisionName)!;
      writeStatus(
        this.hub,
        this.kinds.decisions,
        decision,
        g.clusters.length ? { decisions: g.clusters.map((clusterName) => ({ clusterName, reason: '' })) } : {},
      );
      return {
        decisionGroupIndex: i,
        decisionGroupName: g.name,
        decisions: [decisionName],
        clusterCount: g.clusters.length,
      };
    });
    // Decisions of groups that are no more.
    const kept = new Set(decisionGroups.flatMap((g) => g.decisions));
    for (const d of this.hub.storeList(this.kinds.decisions, namespace))
      if (d.metadata.labels?.[PLACEMENT_LABEL] === name && !kept.has(d.metadata.name!))
        this.hub.deleteObject(this.kinds.decisions, namespace, d.metadata.name!);

    let conditions = ((p.status as { conditions?: Condition[] })?.conditions ?? []) as Condition[];
    conditions = setCondition(conditions, {
      type: 'PlacementMisconfigured',
      status: 'False',
      reason: 'Succeedconfigured',
      message: 'Placement configurations check pass',
    });
    conditions = setCondition(
      conditions,
      satisfied(spec, bindings, eligibleSets, inSets.size, feasible.length, unscheduled),
    );
    writeStatus(this.hub, this.kinds.placements, p, {
      // Left out when zero, as OCM's status (omitempty) has it.
      ...(chosen.length ? { numberOfSelectedClusters: chosen.length } : {}),
      decisionGroups,
      conditions,
    });
  }

  private decidedClusters(namespace: string, name: string): string[] {
    return this.hub
      .storeList(this.kinds.decisions, namespace)
      .filter((d) => d.metadata.labels?.[PLACEMENT_LABEL] === name)
      .flatMap((d) =>
        ((d.status as { decisions?: { clusterName: string }[] })?.decisions ?? []).map((x) => x.clusterName),
      );
  }
}

/** PlacementSatisfied, in the order OCM's scheduler decides its reason. */
function satisfied(
  spec: PlacementSpec,
  bindings: string[],
  eligibleSets: string[],
  available: number,
  feasible: number,
  unscheduled: number,
): Omit<Condition, 'lastTransitionTime'> {
  const type = 'PlacementSatisfied';
  if (!bindings.length)
    return {
      type,
      status: 'False',
      reason: 'NoManagedClusterSetBindings',
      message: 'No valid ManagedClusterSetBindings found in placement namespace',
    };
  if (!eligibleSets.length)
    return {
      type,
      status: 'False',
      reason: 'NoIntersection',
      message: `None of ManagedClusterSets [${(spec.clusterSets ?? []).join(',')}] is bound to placement namespace`,
    };
  if (!available)
    return {
      type,
      status: 'False',
      reason: 'AllManagedClusterSetsEmpty',
      message: `All ManagedClusterSets [${eligibleSets.join(',')}] have no member ManagedCluster`,
    };
  if (!feasible)
    return {
      type,
      status: 'False',
      reason: 'NoManagedClusterMatched',
      message: 'No ManagedCluster matches any of the cluster predicate',
    };
  if (!unscheduled)
    return { type, status: 'True', reason: 'AllDecisionsScheduled', message: 'All cluster decisions scheduled' };
  return {
    type,
    status: 'False',
    reason: 'NotAllDecisionsScheduled',
    message: `${unscheduled} cluster decisions unscheduled`,
  };
}
