// Which clusters of a rollout OCM v1.0.0 has timed out, and whether that stops the rollout. OCM's
// set status never names a timed-out cluster, so a rollout held by one looks stuck for no reason;
// this reads the same facts OCM reads and applies its rule:
// - the cluster's status comes from its ManifestWork, and only a work with the set's current
//   template counts (ocm pkg/work/hub/controllers/manifestworkreplicasetcontroller,
//   manifestworkreplicaset_deploy_reconcile.go clusterRolloutStatusFunc): no Applied condition is
//   ToApply; Applied True (or Progressing True) is Progressing, counted from the work's creation;
//   then Available True is Succeeded; Applied False, or Degraded True, is Failed, counted from
//   when Applied last changed;
// - a Progressing or Failed cluster whose count reached the strategy's progressDeadline is TimeOut
//   (sdk-go v1.0.0 pkg/apis/cluster/v1alpha1/rollout.go determineRolloutStatus: not before the
//   moment, so at it exactly it has timed out); `None`, none, or a value OCM cannot parse
//   (parseTimeout) is no deadline;
// - TimeOut counts as a failure: in a decision group (ProgressivePerGroup, and every mandatory
//   group, which tolerates none) more failures than the group's maxFailures stop the walk at that
//   group; Progressive counts them over every decided cluster; All never stops. Once the cluster's
//   work is Available it is Succeeded again and the walk goes on.

type Condition = { type: string; status: string; lastTransitionTime?: string };

export interface TimedWork {
  metadata: { creationTimestamp?: string };
  status?: { conditions?: Condition[] };
}

export type OcmRolloutStatus = 'ToApply' | 'Progressing' | 'Succeeded' | 'Failed' | 'TimeOut';

interface Mandatory {
  groupName?: string;
  groupIndex?: number;
}
interface Steps {
  progressDeadline?: string;
  maxFailures?: number | string;
  mandatoryDecisionGroups?: Mandatory[];
}
export interface StrategyLike {
  type?: string;
  all?: { progressDeadline?: string };
  progressive?: Steps;
  progressivePerGroup?: Steps;
}

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 1e-3, µs: 1e-3, ns: 1e-6 };

/** The strategy's own settings: each type reads only its own field. */
function steps(s: StrategyLike | undefined): Steps | undefined {
  return s?.type === 'Progressive' ? s.progressive : s?.type === 'ProgressivePerGroup' ? s.progressivePerGroup : s?.all;
}

/**
 * The deadline as written and in milliseconds, or undefined for none. OCM first matches
 * `^(([0-9])+[h|m|s])|None$`, then hands the whole to Go's duration parser; failing either is no
 * deadline (the handler reports an error and rolls nothing out).
 */
export function progressDeadline(s: StrategyLike | undefined): { text: string; ms: number } | undefined {
  const text = steps(s)?.progressDeadline;
  if (!text || text === 'None' || !/^([0-9]+[h|m|s])|None$/.test(text)) return undefined;
  if (!/^([0-9]*(\.[0-9]*)?(h|m|s|ms|us|µs|ns))+$/.test(text)) return undefined;
  let ms = 0;
  for (const m of text.matchAll(/([0-9]*(?:\.[0-9]*)?)(ms|us|µs|ns|h|m|s)/g)) {
    if (m[1] === '' || m[1] === '.') return undefined;
    ms += Number(m[1]) * UNIT_MS[m[2]!]!;
  }
  return { text, ms };
}

const find = (w: TimedWork, type: string) => w.status?.conditions?.find((c) => c.type === type);
const isTrue = (w: TimedWork, type: string) => find(w, type)?.status === 'True';

/**
 * OCM's status for a cluster whose work has the current template (pass undefined for none or an
 * outdated one: OCM sees ToApply), and since when it is counted.
 */
export function ocmStatus(
  work: TimedWork | undefined,
  deadlineMs: number | undefined,
  now: number,
): { status: OcmRolloutStatus; since?: number } {
  if (!work) return { status: 'ToApply' };
  const applied = find(work, 'Applied');
  if (!applied) return { status: 'ToApply' };
  const changed = Date.parse(applied.lastTransitionTime ?? '');
  let status: OcmRolloutStatus = 'ToApply';
  let since = Date.parse(work.metadata.creationTimestamp ?? '');
  if (applied.status === 'True' || isTrue(work, 'Progressing')) status = 'Progressing';
  else if (applied.status === 'False') {
    status = 'Failed';
    since = changed;
  }
  if (status !== 'Failed') {
    if (isTrue(work, 'Available')) return { status: 'Succeeded' };
    if (isTrue(work, 'Degraded')) {
      status = 'Failed';
      since = changed;
    }
  }
  if (status === 'ToApply') return { status };
  // Without a time to count from, OCM counts from now: never timed out.
  if (deadlineMs === undefined || !Number.isFinite(since)) return { status };
  return { status: now >= since + deadlineMs ? 'TimeOut' : status, since };
}

/** A count or a percentage of `total`, rounded up; 0 (none tolerated) when absent or out of range. */
function allowed(v: number | string | undefined, total: number): number {
  const m = typeof v === 'string' ? /^([0-9.]+)%$/.exec(v) : null;
  const n = typeof v === 'number' ? v : m ? Math.ceil((Number(m[1]) * total) / 100) : NaN;
  return !Number.isFinite(n) || n <= 0 || n > total ? 0 : n;
}

export interface DecidedStatus {
  cluster: string;
  groupIndex: number;
  groupName: string;
  status: OcmRolloutStatus;
}

export interface Stop {
  /** The failures (failed or timed out) counted where the cluster is, and how many are tolerated. */
  failures: number;
  maxFailures: number;
  /** Counted in the cluster's decision group, or over every decided cluster (Progressive). */
  over: 'group' | 'clusters';
}

/** Whether the failures counted with this cluster's are more than the strategy tolerates there. */
export function stopsAt(s: StrategyLike | undefined, all: DecidedStatus[], c: DecidedStatus): Stop | undefined {
  const type = s?.type ?? 'All';
  if (type !== 'Progressive' && type !== 'ProgressivePerGroup') return undefined;
  const own = steps(s);
  const failed = (x: DecidedStatus) => x.status === 'Failed' || x.status === 'TimeOut';
  const mandatory = (own?.mandatoryDecisionGroups ?? []).some((g) =>
    g.groupName ? g.groupName === c.groupName : g.groupIndex === c.groupIndex,
  );
  if (mandatory || type === 'ProgressivePerGroup') {
    const group = all.filter((x) => x.groupIndex === c.groupIndex);
    const max = mandatory ? 0 : allowed(own?.maxFailures, group.length);
    const failures = group.filter(failed).length;
    return failures > max ? { failures, maxFailures: max, over: 'group' } : undefined;
  }
  const max = allowed(own?.maxFailures, all.length);
  const failures = all.filter(failed).length;
  return failures > max ? { failures, maxFailures: max, over: 'clusters' } : undefined;
}
