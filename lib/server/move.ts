// Moving an operator to a namespace of its own, as the person: the facts gathered for
// lib/olm/install/move.ts, then applied — the new namespace and OperatorGroup first (removed again
// if a later write fails before anything was deleted), then the Subscription made again there by
// resubscribe.ts (old Subscription, its CSV waited for, the new Subscription; the old one put back
// if the new one cannot be made).
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import { planMove, type MovePlan } from '../olm/install/move';
import type { InstallPlanResult } from '../olm/install/plan';
import { CSV_TYPE, targetNamespacesOf, type ClusterServiceVersion } from '../olm/resources/cluster-service-version';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../olm/resources/install-plan';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { z } from 'zod';
import { ApiError, dnsLabel } from './api-error';
import { applyPlan, NAMESPACE_TYPE } from './install';
import { accessReview } from './permissions';
import { resubscribe, type ResubscribeResult } from './resubscribe';

async function readOr<T>(run: () => Promise<T>, otherwise: T): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isKubeError(err, 404) || isKubeError(err, 403)) return otherwise;
    throw err;
  }
}

const denied = async (client: KubeClient, verb: string, group: string, resource: string, namespace: string) => {
  const r = await accessReview(client, verb, group, resource, namespace);
  return r.allowed ? undefined : (r.reason ?? 'the cluster refused');
};

async function gather(
  client: KubeClient,
  namespace: string,
  name: string,
  to: string,
): Promise<{ sub: Subscription; plan: MovePlan }> {
  const sub = await client.get<Subscription>(SUBSCRIPTION_TYPE, name, namespace);
  const installed = sub.status?.installedCSV;
  const [csv, here, hereGroups, herePlans, exists, toGroups, toSubs, ns, og, createSub, deleteSub, deleteCsv] =
    await Promise.all([
      installed
        ? readOr<ClusterServiceVersion | undefined>(
            () => client.get<ClusterServiceVersion>(CSV_TYPE, installed, namespace),
            undefined,
          )
        : Promise.resolve(undefined),
      readOr(
        async () => (await client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace })).items,
        [] as Subscription[],
      ),
      readOr(
        async () => (await client.listAll<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace })).items,
        [] as OperatorGroup[],
      ),
      readOr(
        async () => (await client.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace })).items,
        [] as InstallPlan[],
      ),
      client.get(NAMESPACE_TYPE, to).then(
        () => true as const,
        (err: unknown) =>
          isKubeError(err, 404) ? (false as const) : isKubeError(err, 403) ? ('unknown' as const) : Promise.reject(err),
      ),
      readOr(
        async () => (await client.listAll<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace: to })).items,
        [] as OperatorGroup[],
      ),
      readOr(
        async () => (await client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace: to })).items,
        [] as Subscription[],
      ),
      accessReview(client, 'create', '', 'namespaces').then((r) => (r.allowed ? undefined : r.reason)),
      denied(client, 'create', OPERATOR_GROUP_TYPE.group, OPERATOR_GROUP_TYPE.plural, to),
      denied(client, 'create', SUBSCRIPTION_TYPE.group, SUBSCRIPTION_TYPE.plural, to),
      denied(client, 'delete', SUBSCRIPTION_TYPE.group, SUBSCRIPTION_TYPE.plural, namespace),
      denied(client, 'delete', CSV_TYPE.group, CSV_TYPE.plural, namespace),
    ]);
  const plan = planMove({
    subscription: sub,
    csv,
    // What OLM wrote on the CSV, else what the namespace's one group selects (none named: all).
    targets:
      (csv && targetNamespacesOf(csv)) ??
      (hereGroups.length === 1
        ? (hereGroups[0]!.status?.namespaces ?? hereGroups[0]!.spec?.targetNamespaces ?? [''])
        : [namespace]),
    to,
    toExists: exists,
    toGroups,
    toSubscriptions: toSubs,
    sharing: here.filter((s) => s.metadata?.name !== name).map((s) => s.metadata?.name ?? ''),
    waitingPlans: herePlans
      .filter((p) => p.status?.phase === 'RequiresApproval' && !p.spec.approved)
      .map((p) => ({ name: p.metadata?.name ?? '', csvNames: p.spec.clusterServiceVersionNames ?? [] })),
    denied: {
      ...(ns ? { createNamespace: ns } : {}),
      ...(og ? { createOperatorGroup: og } : {}),
      ...(createSub ? { createSubscription: createSub } : {}),
      ...(deleteSub ? { deleteSubscription: deleteSub } : {}),
      ...(deleteCsv ? { deleteCsv } : {}),
    },
  });
  return { sub, plan };
}

/** The namespace to move to: the body of a move and of its plan. */
export const MoveBody = z.strictObject({ to: dnsLabel });

export async function movePlan(client: KubeClient, namespace: string, name: string, to: string): Promise<MovePlan> {
  return (await gather(client, namespace, name, to)).plan;
}

export async function applyMove(
  client: KubeClient,
  namespace: string,
  name: string,
  to: string,
): Promise<ResubscribeResult & { created: { kind: string; name: string }[] }> {
  const { sub, plan } = await gather(client, namespace, name, to);
  if (plan.blockers.length) throw new ApiError(409, 'Conflict', plan.blockers.join('; '), { blockers: plan.blockers });
  // Namespace and OperatorGroup through the install's apply: a failure removes what it made.
  const made = await applyPlan(client, { objects: plan.objects } as InstallPlanResult);
  const csv = plan.deletes.find((d) => d.kind === 'ClusterServiceVersion')?.name;
  const also = plan.deletes
    .filter((d) => d.kind === 'InstallPlan')
    .map((d) => ({ type: INSTALL_PLAN_TYPE, namespace, name: d.name }));
  const result = await resubscribe(client, {
    namespace,
    original: sub,
    ...(csv ? { csv } : {}),
    also,
    next: plan.subscription!,
    describeNext: `in ${to}${csv ? ` starting at ${csv}` : ''}`,
  });
  return { ...result, created: made.created.map((c) => ({ kind: c.kind, name: c.name })) };
}
