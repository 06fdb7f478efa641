// Which clusters a ManifestWorkReplicaSet's ManifestWork goes to now, under its placement's
// rollout strategy, as OCM's rollout handler (open-cluster-management-io/sdk-go v1.0.0, cluster
// v1alpha1) decides it from each decided cluster's state:
// - All: every cluster at once, failures or not.
// - Progressive: the mandatory decision groups first (as ProgressivePerGroup, no failure allowed);
//   then clusters by name, at most `maxConcurrency` (a count or a percentage of the clusters,
//   default all) in flight (progressing or failed) at a time; once more than `maxFailures` have
//   failed, none is added.
// - ProgressivePerGroup: the mandatory groups first, then one decision group after another: a
//   group starts when no cluster before it is still in flight but the failed ones, and failures
//   stay within `maxFailures` (of each group's size).
// A cluster succeeds when its work is Available; with `minSuccessTime` it soaks first: counted from
// its work's creation (OCM's status function gives the work's creationTimestamp as the last
// transition), a succeeded cluster within it still holds the rollout as one in flight does
// (sdk-go determineRolloutStatus). With a `progressDeadline`, a progressing or failed cluster that
// has not succeeded within it has timed out: it no longer holds a place in flight but counts as a
// failure against `maxFailures` (docs/sandbox.md#open-cluster-management).

/** A cluster's state as the rollout handler names it. */
export type ClusterRolloutState = 'ToApply' | 'Progressing' | 'Succeeded' | 'Failed' | 'TimeOut';

export interface DecidedCluster {
  name: string;
  groupIndex: number;
  groupName: string;
  state: ClusterRolloutState;
  /** Succeeded, but within the strategy's minSuccessTime of its work's creation. */
  soaking?: boolean;
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
    minSuccessTime?: string;
    progressDeadline?: string;
  };
  progressivePerGroup?: {
    mandatoryDecisionGroups?: MandatoryGroup[];
    maxFailures?: number | string;
    minSuccessTime?: string;
    progressDeadline?: string;
  };
  all?: { progressDeadline?: string };
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 1e-6 };

const GO_DURATION = /^([0-9.]+(h|m|s|ms|us|µs|ns))+$/;

/** A Go duration (`90s`, `1m30s`) in milliseconds; 0 when absent or not one (metav1.Duration). */
export function durationMs(v: string | undefined): number {
  if (!v || !GO_DURATION.test(v)) return 0;
  let ms = 0;
  for (const m of v.matchAll(/([0-9.]+)(ms|us|µs|ns|h|m|s)/g)) ms += Number(m[1]) * UNIT_MS[m[2]!]!;
  return ms;
}

/** The strategy's soak (All has none: sdk-go rolls every cluster out with a zero minSuccessTime). */
export function minSuccessMs(strategy: RolloutStrategy | undefined): number {
  if (strategy?.type === 'Progressive') return durationMs(strategy.progressive?.minSuccessTime);
  if (strategy?.type === 'ProgressivePerGroup') return durationMs(strategy.progressivePerGroup?.minSuccessTime);
  return 0;
}

/**
 * How long a cluster may be progressing or failed before it times out: unbounded when absent or
 * `None` (sdk-go parseTimeout). OCM's pattern takes digits and a unit at the start, then Go's
 * duration parser the whole; a value that fails either is an error there (the CRD refuses most),
 * here unbounded.
 */
export function progressDeadlineMs(strategy: RolloutStrategy | undefined): number {
  const v =
    strategy?.type === 'Progressive'
      ? strategy.progressive?.progressDeadline
      : strategy?.type === 'ProgressivePerGroup'
        ? strategy.progressivePerGroup?.progressDeadline
        : strategy?.all?.progressDeadline;
  if (!v || v === 'None' || !/^[0-9]+[hms|]/.test(v) || !GO_DURATION.test(v)) return Infinity;
  return durationMs(v);
}

/**
 * A count or a percentage of `total` (rounded up), as sdk-go's calculateRolloutSize reads it: a
 * result of zero or less, or more than `total`, gives the fallback, so a maxFailures above the
 * number of clusters tolerates none and a maxConcurrency of 0 lets every cluster through.
 */
function countOf(v: number | string | undefined, total: number, fallback: number): number {
  if (v === undefined || v === '') return fallback;
  const m = typeof v === 'string' ? /^(\d+)%$/.exec(v) : null;
  const n = typeof v === 'number' ? v : m ? Math.ceil((Number(m[1]) * total) / 100) : Number(v);
  return !Number.isFinite(n) || n <= 0 || n > total ? fallback : n;
}

const isMandatory = (c: DecidedCluster, groups: MandatoryGroup[] | undefined) =>
  (groups ?? []).some((g) => (g.groupName ? g.groupName === c.groupName : g.groupIndex === c.groupIndex));

const inFlight = (c: DecidedCluster) => c.state === 'Progressing' || c.state === 'Failed' || !!c.soaking;
/** A failed cluster and one that timed out both count against maxFailures. */
const failedOrTimedOut = (c: DecidedCluster) => c.state === 'Failed' || c.state === 'TimeOut';

/** Group by group, as the rollout handler's per-group walk: the new clusters of the first group not done. */
function perGroup(clusters: DecidedCluster[], maxFailures: number | string | undefined): string[] {
  const rollout = clusters.filter(inFlight).length;
  let pending = rollout;
  let failures = 0;
  const out: string[] = [];
  for (const i of [...new Set(clusters.map((c) => c.groupIndex))].sort((a, b) => a - b)) {
    const group = clusters.filter((c) => c.groupIndex === i).sort((a, b) => a.name.localeCompare(b.name));
    const allowed = countOf(maxFailures, group.length, 0);
    const failed = group.filter(failedOrTimedOut).length;
    for (const c of group)
      if (c.state === 'ToApply') {
        out.push(c.name);
        pending++;
      }
    failures += failed;
    if (pending - failures > 0 || failed > allowed) return out;
  }
  return out;
}

/** The clusters whose work is to be written now (those already up to date are not listed). */
export function clustersToRollOut(strategy: RolloutStrategy | undefined, clusters: DecidedCluster[]): string[] {
  const type = strategy?.type ?? 'All';
  const byName = [...clusters].sort((a, b) => a.name.localeCompare(b.name));
  if (type === 'All') return byName.filter((c) => c.state === 'ToApply').map((c) => c.name);

  const settings = type === 'Progressive' ? strategy?.progressive : strategy?.progressivePerGroup;
  const mandatory = clusters.filter((c) => isMandatory(c, settings?.mandatoryDecisionGroups));
  if (mandatory.length) {
    const first = perGroup(mandatory, 0);
    // Any mandatory cluster still to apply, in flight or timed out holds the rest back.
    if (first.length || mandatory.some((c) => inFlight(c) || c.state === 'TimeOut')) return first;
  }
  const rest = clusters.filter((c) => !isMandatory(c, settings?.mandatoryDecisionGroups));
  if (type === 'ProgressivePerGroup') return perGroup(rest, strategy?.progressivePerGroup?.maxFailures);

  const total = rest.length;
  const size = Math.max(countOf(strategy?.progressive?.maxConcurrency, total, total), 1);
  // OCM counts maxFailures against every decided cluster, the mandatory ones too.
  const maxFailures = countOf(strategy?.progressive?.maxFailures, clusters.length, 0);
  const sorted = [...rest].sort((a, b) => a.name.localeCompare(b.name));
  let flying = sorted.filter(inFlight).length;
  if (flying >= size || sorted.filter(failedOrTimedOut).length > maxFailures) return [];
  const out: string[] = [];
  for (const c of sorted) {
    if (c.state !== 'ToApply') continue;
    out.push(c.name);
    if (++flying >= size) break;
  }
  return out;
}
