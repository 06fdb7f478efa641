// "Upgrade up to a version": a Manual Subscription given a target on its channel's update path.
// OLM makes one InstallPlan per hop (lib/olm/graph/update-path.ts); each plan is approved only if
// every CSV it carries is one of the hops up to the target, so the walk stops there, and a plan
// that goes past the target or also carries another operator's upgrade (plans are shared per
// namespace) waits, with the reason. The target and who set it live on the Subscription, so they
// survive restarts and are the same for every replica; its seal is made and checked in lib/server.
import type { UpdateStep } from '../graph/update-path';
import type { InstallPlan } from '../resources/install-plan';
import type { Subscription } from '../resources/subscription';

export const UPGRADE_TARGET_ANNOTATION = 'olm-console.io/upgrade-target';

export interface UpgradeTarget {
  /** The CSV to stop at. */
  csv: string;
  /** Who set it (the person's username, from SelfSubjectReview). */
  setBy: string;
  /** The groups the cluster authenticated them with then, for the approver's review of their rights. */
  groups?: string[];
  setAt: string;
  /** Random, one per target: the console's record of live targets names it, so a target is used once. */
  id?: string;
  /** The Subscription's catalog and channel when it was set: the target holds for those only. */
  source?: string;
  sourceNamespace?: string;
  channel?: string;
  /** The console's seal over the Subscription and every field above (lib/server/upgrade-target-seal.ts). */
  seal?: string;
}

const isText = (v: unknown): v is string => typeof v === 'string';

export function readTarget(sub: Pick<Subscription, 'metadata'>): UpgradeTarget | undefined {
  const raw = sub.metadata?.annotations?.[UPGRADE_TARGET_ANNOTATION];
  if (!raw) return undefined;
  try {
    const t = JSON.parse(raw) as Record<string, unknown>;
    if (!isText(t.csv) || !t.csv || !isText(t.setBy)) return undefined;
    const target: UpgradeTarget = { csv: t.csv, setBy: t.setBy, setAt: isText(t.setAt) ? t.setAt : '' };
    if (Array.isArray(t.groups) && t.groups.every(isText)) target.groups = t.groups;
    for (const k of ['id', 'source', 'sourceNamespace', 'channel', 'seal'] as const) {
      const v = t[k];
      if (isText(v)) target[k] = v;
    }
    return target;
  } catch {
    return undefined;
  }
}

export function writeTarget(t: UpgradeTarget): string {
  const { csv, setBy, groups, setAt, id, source, sourceNamespace, channel, seal } = t;
  const optional = { groups, id, source, sourceNamespace, channel, seal };
  const present = Object.entries(optional).filter(([, v]) => v !== undefined);
  return JSON.stringify({ csv, setBy, setAt, ...Object.fromEntries(present) });
}

/** The hops from the installed CSV up to `target` on the update path, or why there are none. */
export function hopsTo(steps: readonly UpdateStep[], target: string): { hops: UpdateStep[] } | { error: string } {
  const i = steps.findIndex((s) => s.to === target);
  if (i < 0)
    return {
      error: `${target} is not on the update path from the installed version (${steps.map((s) => s.to).join(' → ') || 'nothing newer'})`,
    };
  return { hops: steps.slice(0, i + 1) };
}

export type Verdict =
  | { action: 'reached' }
  | { action: 'approve'; plan: string; csvs: string[] }
  | { action: 'wait'; plan?: string; reason: string };

/**
 * What to do now for a Subscription with a target: `installed` is its installed CSV, `plan` the
 * InstallPlan its status points to, `hops` the path up to the target (hopsTo).
 */
export function decide(
  sub: Subscription,
  target: UpgradeTarget,
  hops: readonly UpdateStep[],
  plan: InstallPlan | undefined,
): Verdict {
  const installed = sub.status?.installedCSV;
  if (installed === target.csv) return { action: 'reached' };
  if (sub.spec.installPlanApproval !== 'Manual')
    return { action: 'wait', reason: 'the Subscription is no longer Manual: OLM approves its plans itself' };
  if (!plan) return { action: 'wait', reason: 'OLM has not made the next InstallPlan yet' };
  const name = plan.metadata?.name ?? '';
  if (plan.spec.approved)
    return { action: 'wait', plan: name, reason: `InstallPlan ${name} is approved; OLM is running it` };
  if (plan.status?.phase && plan.status.phase !== 'RequiresApproval')
    return { action: 'wait', plan: name, reason: `InstallPlan ${name} is ${plan.status.phase}` };
  const onPath = new Set(hops.map((h) => h.to));
  const csvs = plan.spec.clusterServiceVersionNames ?? [];
  const next = sub.status?.currentCSV;
  if (next && !onPath.has(next))
    return {
      action: 'wait',
      plan: name,
      reason: `InstallPlan ${name} would install ${next}, past the target ${target.csv}`,
    };
  const others = csvs.filter((c) => !onPath.has(c));
  if (others.length)
    return {
      action: 'wait',
      plan: name,
      reason: `InstallPlan ${name} also carries ${others.join(', ')} (InstallPlans are shared per namespace): approving it would approve ${others.length === 1 ? 'that' : 'those'} too`,
    };
  if (!csvs.length) return { action: 'wait', plan: name, reason: `InstallPlan ${name} names no CSV yet` };
  return { action: 'approve', plan: name, csvs };
}
