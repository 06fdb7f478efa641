// Approvals across the fleet: every InstallPlan waiting for a person on each cluster, with what it
// changes (each operator's part of the plan: from which CSV and version to which, planParts), and
// approving a chosen set, each plan on its own cluster as the person, through the same approval as
// the InstallPlan page (day-two.ts: the plan must still be the one the person saw). Each result is
// reported for its own cluster: approved, or refused with Kubernetes' or OLM's reason.
import type {
  ClusterApprovals,
  FleetApproval,
  FleetApproveRequestItem,
  FleetApproveResult,
  FleetPlanChange,
} from '../../api/fleet';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { CSV_TYPE, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { installPlanSummary, parseStepManifest } from '../../olm/status/install-plan-status';
import { planParts } from '../../olm/status/plan-parts';
import { errorBody } from '../api-error';
import { approveInstallPlan } from '../day-two';
import { boundedMap, FLEET_CONCURRENCY, forgetCluster, withDeadline, FLEET_TIMEOUT_MS } from './across';
import { namespacedReader } from './namespaced-reader';
import { clusterVersionChanges } from './approvals-v1';
import type { FleetMember } from './members';
import type { FleetPerson } from './person';

/** The version a plan's CSV step carries inline (a bundle unpacked from an image is a reference: none). */
function stepVersion(plan: InstallPlan, csv: string): string | undefined {
  for (const step of plan.status?.plan ?? []) {
    if (step.resource.kind !== 'ClusterServiceVersion' || step.resource.name !== csv) continue;
    const m = parseStepManifest(step);
    const v = m.form === 'object' ? (m.object.spec as { version?: unknown } | undefined)?.version : undefined;
    if (typeof v === 'string') return v;
  }
  return undefined;
}

export function waitingApproval(
  plan: InstallPlan,
  subs: readonly Subscription[],
  csvs: readonly ClusterServiceVersion[],
): FleetApproval {
  const ns = plan.metadata?.namespace ?? '';
  const here = subs.filter((s) => s.metadata?.namespace === ns);
  const changes: FleetPlanChange[] = planParts(plan, here).map((part) => {
    const sub = here.find((s) => s.metadata?.name === part.subscription);
    const from = part.from
      ? csvs.find((c) => c.metadata?.namespace === ns && c.metadata?.name === part.from)
      : undefined;
    const toVersion = stepVersion(plan, part.csv);
    return {
      ...(part.subscription ? { subscription: part.subscription } : {}),
      ...(sub?.spec.name ? { package: sub.spec.name } : {}),
      ...(part.from ? { fromCsv: part.from } : {}),
      ...(from?.spec?.version ? { fromVersion: from.spec.version } : {}),
      toCsv: part.csv,
      ...(toVersion ? { toVersion } : {}),
      change: part.change,
    };
  });
  return {
    namespace: ns,
    name: plan.metadata?.name ?? '',
    ...(plan.metadata?.resourceVersion ? { resourceVersion: plan.metadata.resourceVersion } : {}),
    clusterServiceVersionNames: plan.spec.clusterServiceVersionNames ?? [],
    ...(plan.metadata?.creationTimestamp ? { createdAt: plan.metadata.creationTimestamp } : {}),
    changes,
  };
}

/**
 * One cluster's approvals waiting, as the person may read them: its InstallPlans waiting for
 * approval (cluster-wide, or namespace by namespace where the person may not list them
 * everywhere: namespaced-reader.ts, `candidates` being the names the page offers) and its
 * ClusterExtensions with a newer version waiting (approvals-v1.ts).
 */
export async function clusterApprovals(
  client: KubeClient,
  candidates: readonly string[] = [],
): Promise<ClusterApprovals> {
  const notes: string[] = [];
  const reader = namespacedReader(client, candidates);
  const orEmpty = async <T>(read: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await read();
    } catch (err) {
      if (!isKubeError(err, 403)) throw err;
      notes.push(err.message);
      return [];
    }
  };
  const [plans, subs, csvs, v1] = await Promise.all([
    reader.list<InstallPlan>(INSTALL_PLAN_TYPE),
    orEmpty(() => reader.list<Subscription>(SUBSCRIPTION_TYPE)),
    orEmpty(() => reader.list<ClusterServiceVersion>(CSV_TYPE)),
    clusterVersionChanges(client),
  ]);
  const approvals = plans
    .filter((p) => installPlanSummary(p).needsApproval)
    .map((p) => waitingApproval(p, subs, csvs))
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  const readIn = reader.readIn();
  return {
    approvals,
    versionChanges: v1.versionChanges,
    notes: [...notes, ...v1.notes],
    ...(readIn ? { namespaces: readIn } : {}),
  };
}

/**
 * Approves each plan on its own cluster as the person, a few clusters at a time; one plan's
 * refusal never stops another's approval. The caller has checked every cluster name.
 */
export async function approveAcross(
  members: readonly FleetMember[],
  person: FleetPerson,
  items: readonly FleetApproveRequestItem[],
): Promise<FleetApproveResult[]> {
  const results = await boundedMap(items, FLEET_CONCURRENCY, async (item): Promise<FleetApproveResult> => {
    const member = members.find((m) => m.name === item.cluster)!;
    const where = { cluster: item.cluster, namespace: item.namespace, name: item.name };
    try {
      const { plan } = await withDeadline(
        approveInstallPlan(person.client(member), item.namespace, item.name, {
          resourceVersion: item.resourceVersion,
          clusterServiceVersionNames: item.clusterServiceVersionNames,
        }),
        FLEET_TIMEOUT_MS,
        item.cluster,
      );
      return { ...where, ok: true, approved: plan.spec.clusterServiceVersionNames ?? [] };
    } catch (err) {
      const timeout = (err as { fleetTimeout?: boolean }).fleetTimeout;
      const { code, reason, message } = timeout
        ? {
            code: 504,
            reason: 'Timeout',
            message: `${(err as Error).message}; the approval may or may not have been made`,
          }
        : errorBody(err).error;
      return { ...where, ok: false, error: { code, reason, message } };
    }
  });
  // What the person was told of these clusters' plans is out of date now.
  for (const cluster of new Set(items.map((i) => i.cluster))) forgetCluster(person, cluster);
  return results;
}
