// An upgrade waiting for approval, as the tests of what an upgrade changes arrange it on the
// sandbox or a real cluster: a package subscribed under Manual approval at an older version, its
// first plan approved, and the plan to the next version left waiting. Through the Kubernetes API
// only, as an admin with kubectl would.
import type { KubeClient } from '../../k8s/client';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { csvPhase, subscribe, waitFor } from './cluster';

export interface WaitingUpgrade {
  namespace: string;
  package: string;
  channel: string;
  /** The CSV installed first. */
  from: string;
  /** The CSV whose plan is left waiting. */
  to: string;
  /** The CatalogSource (in the catalog namespace); the sandbox's default where not given. */
  source?: string;
}

/** The namespace's InstallPlan for `csv` that waits for approval, once there is one. */
export const planWaitingFor = (admin: KubeClient, namespace: string, csv: string, timeoutMs?: number) =>
  waitFor(
    `a plan for ${csv} waiting`,
    async () =>
      (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace })).items.find(
        (p) => p.spec.clusterServiceVersionNames.includes(csv) && p.status?.phase === 'RequiresApproval',
      ),
    timeoutMs,
  );

/**
 * Installs `u.from` under Manual approval (one namespace as the OperatorGroup's target) and
 * returns the plan to `u.to` waiting for approval, once the Subscription names `u.to` (OLM writes
 * the plan before the Subscription's currentCSV moves). Each wait is `timeoutMs` at the most: a
 * real cluster's OLM takes minutes.
 */
export async function upgradeWaitingForApproval(
  admin: KubeClient,
  u: WaitingUpgrade,
  timeoutMs = 15_000,
): Promise<InstallPlan> {
  await subscribe(admin, {
    namespace: u.namespace,
    package: u.package,
    channel: u.channel,
    approval: 'Manual',
    startingCSV: u.from,
    targets: [u.namespace],
    source: u.source,
  });
  const first = await planWaitingFor(admin, u.namespace, u.from, timeoutMs);
  await admin.patch(
    INSTALL_PLAN_TYPE,
    first.metadata!.name!,
    { spec: { approved: true } },
    { namespace: u.namespace, type: 'merge' },
  );
  await waitFor(
    `${u.namespace}/${u.from} Succeeded`,
    async () => ((await csvPhase(admin, u.namespace, u.from)) === 'Succeeded' ? true : undefined),
    timeoutMs,
  );
  const plan = await planWaitingFor(admin, u.namespace, u.to, timeoutMs);
  await waitFor(
    `the Subscription moving to ${u.to}`,
    async () =>
      (await admin.get<Subscription>(SUBSCRIPTION_TYPE, u.package, u.namespace)).status?.currentCSV === u.to
        ? true
        : undefined,
    timeoutMs,
  );
  return plan;
}

/**
 * What the demo catalog's pgpilot upgrade from 1.2.0 to 1.4.0 changes in images, the one change
 * it makes (same rules, same CRDs): the demo's digests spell the version they stand for.
 */
export const PGPILOT_UPGRADE_IMAGES = {
  added: ['quay.example.com/demo/pgpilot@sha256:706770696c6f742d312e342e3000000000000000000000000000000000000000'],
  removed: ['quay.example.com/demo/pgpilot@sha256:706770696c6f742d312e322e3000000000000000000000000000000000000000'],
};
