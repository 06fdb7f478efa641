// Which clusters a ManifestWorkReplicaSet's ManifestWork goes to now, under its placement's
// rollout strategy, as OCM's rollout handler (open-cluster-management-io/sdk-go, cluster v1alpha1)
// decides it from each decided cluster's state:
// - All: every cluster at once.
// - Progressive: the mandatory decision groups first, all of them; then the other clusters in
//   decision-group order, at most `maxConcurrency` (a count or a percentage of the clusters,
//   default all) not yet succeeded at a time.
// - ProgressivePerGroup: the mandatory groups first, then one decision group after another, a
//   group starting when every cluster before it succeeded.
// A failure beyond `maxFailures` (default 0) starts nothing new. Time-based fields
// (`minSuccessTime`, `progressDeadline`) are not emulated: a cluster succeeds when its work is
// Available (docs/sandbox.md#open-cluster-management).

/** A cluster's state as the rollout handler names it. */
export type ClusterRolloutState = 'ToApply' | 'Progressing' | 'Succeeded' | 'Failed';

export interface DecidedCluster {
  name: string;
  groupIndex: number;
  groupName: string;
  state: ClusterRolloutState;
}

interface MandatoryGroup {
  groupName?: string;
  groupIndex?: number;
}

export interface RolloutStrategy {
  type?: 'All' | 'Progressive' | 'ProgressivePerGroup';
  progressive?: {
    mandatoryDecisionGroups?: MandatoryGroup[];
    maxConcurrency?: number | string;
    maxFailures?: number | string;
  };
  progressivePerGroup?: { mandatoryDecisionGroups?: MandatoryGroup[]; maxFailures?: number | string };
  all?: { maxFailures?: number | string };
}

function countOf(v: number | string | undefined, total: number, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v);
  return m ? Math.ceil((Number(m[1]) * total) / 100) : Number(v) || fallback;
}

const isMandatory = (c: DecidedCluster, groups: MandatoryGroup[] | undefined) =>
  (groups ?? []).some((g) => (g.groupName ? g.groupName === c.groupName : g.groupIndex === c.groupIndex));

/** The clusters whose work is to be written now (those already up to date are not listed). */
export function clustersToRollOut(strategy: RolloutStrategy | undefined, clusters: DecidedCluster[]): string[] {
  const type = strategy?.type ?? 'All';
  const ordered = [...clusters].sort((a, b) => a.groupIndex - b.groupIndex || a.name.localeCompare(b.name));
  const toApply = (cs: DecidedCluster[]) => cs.filter((c) => c.state === 'ToApply').map((c) => c.name);
  const settings =
    type === 'Progressive'
      ? strategy?.progressive
      : type === 'ProgressivePerGroup'
        ? strategy?.progressivePerGroup
        : strategy?.all;
  const maxFailures = countOf(settings?.maxFailures, clusters.length, 0);
  const failed = clusters.filter((c) => c.state === 'Failed').length;
  if (type === 'All') return failed > maxFailures ? [] : toApply(ordered);

  const mandatoryGroups = (settings as { mandatoryDecisionGroups?: MandatoryGroup[] } | undefined)
    ?.mandatoryDecisionGroups;
  const mandatory = ordered.filter((c) => isMandatory(c, mandatoryGroups));
  const rest = ordered.filter((c) => !isMandatory(c, mandatoryGroups));
  if (mandatory.some((c) => c.state !== 'Succeeded')) return toApply(mandatory);
  if (failed > maxFailures) return [];

  if (type === 'ProgressivePerGroup') {
    const indexes = [...new Set(rest.map((c) => c.groupIndex))].sort((a, b) => a - b);
    for (const i of indexes) {
      const group = rest.filter((c) => c.groupIndex === i);
      if (group.every((c) => c.state === 'Succeeded')) continue;
      return toApply(group);
    }
    return [];
  }
  const maxConcurrency = Math.max(countOf(strategy?.progressive?.maxConcurrency, clusters.length, rest.length), 1);
  let inFlight = rest.filter((c) => c.state === 'Progressing' || c.state === 'Failed').length;
  const out: string[] = [];
  for (const c of rest) {
    if (c.state !== 'ToApply') continue;
    if (inFlight >= maxConcurrency) break;
    out.push(c.name);
    inFlight++;
  }
  return out;
}
