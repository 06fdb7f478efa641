// OCM v1.0.0's ManifestWorkReplicaSet controller (the hub's `work manager`): for each placement a
// ManifestWorkReplicaSet names, a ManifestWork named after it in each decided cluster's namespace,
// labelled `work.open-cluster-management.io/manifestworkreplicaset: <namespace>.<name>` and
// `work.open-cluster-management.io/placementname`, its spec the template, written to the clusters
// the rollout strategy lets through now (rollout.ts) and removed from clusters no longer decided;
// then the status as OCM writes it: a summary per placement and in all (total, Applied, available,
// degraded, progressing) and the conditions PlacementVerified, PlacementRolledOut and
// ManifestworkApplied. Its finalizer removes its ManifestWorks before it goes.
import { setCondition, type Condition } from '../olm-v1/conditions';
import type { ApiServer } from '../server/api-server';
import type { KObject } from '../store/types';
import { WORK_GROUP } from './crds';
import {
  createOrUpdate,
  DECISION_GROUP_INDEX_LABEL,
  DECISION_GROUP_NAME_LABEL,
  isTrue,
  MWRS_CLEANUP_FINALIZER,
  MWRS_LABEL,
  MWRS_PLACEMENT_LABEL,
  PLACEMENT_LABEL,
  writeStatus,
  type Conditions,
  type OcmKinds,
} from './objects';
import {
  clustersToRollOut,
  minSuccessMs,
  progressDeadlineMs,
  type ClusterRolloutState,
  type DecidedCluster,
  type RolloutStrategy,
} from './rollout';

interface MwrsSpec {
  manifestWorkTemplate?: Record<string, unknown>;
  placementRefs?: { name: string; rolloutStrategy?: RolloutStrategy }[];
}

interface Summary {
  total: number;
  Applied?: number;
  available?: number;
  degraded?: number;
  progressing?: number;
}

/**
 * A cluster's rollout state from its work, as OCM's MWRS controller reads it, and since when a
 * progressing or failed one counts towards its progressDeadline: a failed work's Applied condition
 * changed then, any other counts from the work's creation.
 */
function stateOf(work: KObject | undefined, current: boolean): { state: ClusterRolloutState; since: number } {
  if (!work || !current) return { state: 'ToApply', since: 0 };
  const created = Date.parse(work.metadata.creationTimestamp!);
  const conditions = (work.status as { conditions?: Conditions })?.conditions ?? [];
  const applied = conditions.find((c) => c.type === 'Applied');
  const failedSince =
    Date.parse((applied as { lastTransitionTime?: string } | undefined)?.lastTransitionTime ?? '') || created;
  if (!applied) return { state: 'ToApply', since: created };
  if (applied.status === 'False' && !isTrue(conditions, 'Progressing')) return { state: 'Failed', since: failedSince };
  if (isTrue(conditions, 'Available')) return { state: 'Succeeded', since: created };
  if (isTrue(conditions, 'Degraded')) return { state: 'Failed', since: failedSince };
  return { state: 'Progressing', since: created };
}

export class ReplicaSets {
  /**
   * `recheck`: asks for the set to be reconciled again after `ms` (a soaking cluster's
   * minSuccessTime or an unfinished one's progressDeadline ends then; OCM requeues the set for
   * it: RolloutResult.RecheckAfter).
   */
  constructor(
    private readonly hub: ApiServer,
    private readonly kinds: OcmKinds,
    private readonly recheck: (namespace: string, name: string, ms: number) => void = () => {},
  ) {}

  names(): { namespace: string; name: string }[] {
    return this.hub
      .storeList(this.kinds.replicaSets)
      .map((p) => ({ namespace: p.metadata.namespace!, name: p.metadata.name! }));
  }

  /** The sets a ManifestWork belongs to (by its label), to bring their summaries up to date. */
  static owner(work: KObject): { namespace: string; name: string } | undefined {
    const key = work.metadata.labels?.[MWRS_LABEL];
    const dot = key?.indexOf('.') ?? -1;
    return key && dot > 0 ? { namespace: key.slice(0, dot), name: key.slice(dot + 1) } : undefined;
  }

  private works(key: string, placement?: string): KObject[] {
    return this.hub
      .storeList(this.kinds.works)
      .filter(
        (w) =>
          w.metadata.labels?.[MWRS_LABEL] === key &&
          (placement === undefined || w.metadata.labels?.[MWRS_PLACEMENT_LABEL] === placement),
      );
  }

  reconcile(namespace: string, name: string): void {
    let set = this.hub.storeGet(this.kinds.replicaSets, namespace, name);
    if (!set) return;
    const key = `${namespace}.${name}`;
    if (set.metadata.deletionTimestamp) {
      const works = this.works(key);
      for (const w of works)
        if (!w.metadata.deletionTimestamp)
          this.hub.deleteObject(this.kinds.works, w.metadata.namespace, w.metadata.name!);
      if (!works.length && set.metadata.finalizers?.includes(MWRS_CLEANUP_FINALIZER))
        this.hub.updateObject(this.kinds.replicaSets, {
          ...set,
          metadata: {
            ...set.metadata,
            finalizers: set.metadata.finalizers.filter((f) => f !== MWRS_CLEANUP_FINALIZER),
          },
        });
      return;
    }
    if (!set.metadata.finalizers?.includes(MWRS_CLEANUP_FINALIZER))
      set = this.hub.updateObject(this.kinds.replicaSets, {
        ...set,
        metadata: { ...set.metadata, finalizers: [...(set.metadata.finalizers ?? []), MWRS_CLEANUP_FINALIZER] },
      });
    const spec = (set.spec ?? {}) as MwrsSpec;
    const template = JSON.stringify(spec.manifestWorkTemplate ?? {});
    let conditions = ((set.status as { conditions?: Condition[] })?.conditions ?? []) as Condition[];
    const verified = (reason: string) =>
      setCondition(conditions, {
        type: 'PlacementVerified',
        status: reason === 'AsExpected' ? 'True' : 'False',
        reason,
        message: '',
      });

    const placementsSummary: { name: string; availableDecisionGroups: string; summary: Summary }[] = [];
    let count = 0;
    let total = 0;
    for (const ref of spec.placementRefs ?? []) {
      const placement = this.hub.storeGet(this.kinds.placements, namespace, ref.name);
      if (!placement) {
        conditions = verified('PlacementDecisionNotFound');
        writeStatus(this.hub, this.kinds.replicaSets, set, { ...(set.status ?? {}), conditions });
        return;
      }
      const works = new Map(this.works(key, ref.name).map((w) => [w.metadata.namespace!, w]));
      const soak = minSuccessMs(ref.rolloutStrategy);
      const deadline = progressDeadlineMs(ref.rolloutStrategy);
      let soonest = Infinity;
      const decided: DecidedCluster[] = this.hub
        .storeList(this.kinds.decisions, namespace)
        .filter((d) => d.metadata.labels?.[PLACEMENT_LABEL] === ref.name)
        .flatMap((d) =>
          ((d.status as { decisions?: { clusterName: string }[] })?.decisions ?? []).map((x) => {
            const w = works.get(x.clusterName);
            const read = stateOf(w, !!w && JSON.stringify(w.spec ?? {}) === template);
            const since = read.since;
            let state = read.state;
            // The soak counts from the work's creation, not from when it became Available.
            const left = state === 'Succeeded' ? since + soak - Date.now() : 0;
            if (left > 0) soonest = Math.min(soonest, left);
            if ((state === 'Progressing' || state === 'Failed') && deadline < Infinity) {
              const due = since + deadline - Date.now();
              if (due <= 0) state = 'TimeOut';
              else soonest = Math.min(soonest, due);
            }
            return {
              name: x.clusterName,
              groupIndex: Number(d.metadata.labels?.[DECISION_GROUP_INDEX_LABEL] ?? 0),
              groupName: d.metadata.labels?.[DECISION_GROUP_NAME_LABEL] ?? '',
              state,
              ...(left > 0 ? { soaking: true } : {}),
            };
          }),
        );
      if (soonest < Infinity) this.recheck(namespace, name, soonest + 50);
      const existing = new Set(decided.filter((c) => c.state !== 'ToApply').map((c) => c.name));
      for (const cluster of clustersToRollOut(ref.rolloutStrategy, decided)) {
        createOrUpdate(this.hub, this.kinds.works, {
          apiVersion: `${WORK_GROUP}/v1`,
          kind: 'ManifestWork',
          metadata: {
            name,
            namespace: cluster,
            labels: { [MWRS_LABEL]: key, [MWRS_PLACEMENT_LABEL]: ref.name },
          },
          spec: structuredClone(spec.manifestWorkTemplate ?? {}),
        });
        existing.add(cluster);
      }
      const decidedNames = new Set(decided.map((c) => c.name));
      for (const [cluster, w] of works)
        if (!decidedNames.has(cluster) && !w.metadata.deletionTimestamp) {
          this.hub.deleteObject(this.kinds.works, cluster, name);
          existing.delete(cluster);
        }
      const selected = Number(
        (placement.status as { numberOfSelectedClusters?: number })?.numberOfSelectedClusters ?? 0,
      );
      const groups = ((placement.status as { decisionGroups?: unknown[] })?.decisionGroups ?? []).length;
      total += selected;
      count += existing.size;
      placementsSummary.push({
        name: ref.name,
        availableDecisionGroups: `${groups} (${existing.size} / ${selected} clusters applied)`,
        summary: { ...this.countWorks(key, ref.name, template), total: existing.size },
      });
    }
    conditions = verified(count ? 'AsExpected' : 'PlacementDecisionEmpty');
    conditions = setCondition(conditions, {
      type: 'PlacementRolledOut',
      status: total === count ? 'True' : 'False',
      reason: total === count ? 'Complete' : 'Progressing',
      message: '',
    });
    const summary: Summary = { total: count };
    for (const p of placementsSummary)
      for (const k of ['Applied', 'available', 'degraded', 'progressing'] as const)
        summary[k] = (summary[k] ?? 0) + (p.summary[k] ?? 0);
    let applied: string;
    if (!count) {
      applied = 'PlacementDecisionEmpty';
      summary.Applied = summary.available = summary.degraded = summary.progressing = 0;
    } else if (summary.available === count && !summary.progressing && !summary.degraded) applied = 'AsExpected';
    else if (summary.progressing! > 0 && !summary.degraded) applied = 'Processing';
    else applied = 'NotAsExpected';
    conditions = setCondition(conditions, {
      type: 'ManifestworkApplied',
      status: applied === 'AsExpected' ? 'True' : 'False',
      reason: applied,
      message: '',
    });
    // OCM's status patch leaves out the overall summary's zero counts (the per-placement ones stay).
    const shown = Object.fromEntries(Object.entries(summary).filter(([, v]) => v));
    writeStatus(this.hub, this.kinds.replicaSets, set, {
      conditions,
      placementSummary: placementsSummary,
      summary: shown,
    });
  }

  /** The works of one placement whose spec is the template now, counted by their conditions. */
  private countWorks(key: string, placement: string, template: string): Summary {
    const s = { total: 0, Applied: 0, available: 0, degraded: 0, progressing: 0 };
    for (const w of this.works(key, placement)) {
      if (w.metadata.deletionTimestamp || JSON.stringify(w.spec ?? {}) !== template) continue;
      s.total++;
      const c = (w.status as { conditions?: Conditions })?.conditions;
      if (isTrue(c, 'Applied')) s.Applied++;
      if (isTrue(c, 'Progressing')) s.progressing++;
      if (isTrue(c, 'Available')) s.available++;
      if (isTrue(c, 'Degraded')) s.degraded++;
    }
    return s;
  }
}
