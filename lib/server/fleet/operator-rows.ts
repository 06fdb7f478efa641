// Operators across the fleet: each cluster's installs read as the person (OLM v0's Subscriptions
// with their CSVs and InstallPlans, OLM v1's ClusterExtensions), then one row per package with a
// column per cluster, and each install marked where its version differs from the version most of
// the fleet runs. Reading is per cluster; the rows are built from what each cluster answered for
// itself, so nothing one cluster said is shown under another.
import type { FleetInstall } from '../../api/fleet';
import type { ClusterInstall, ClusterInstalls } from '../../api/fleet-operator-rows';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { CSV_TYPE, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { Keys } from '../../olm/resources/common';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { csvDisplayStatus } from '../../olm/status/csv-status';
import { subscriptionUpgradeStatus } from '../../olm/status/subscription-status';
import { extensionRows } from '../olm-v1/extension-rows';
import { namespacedReader } from './namespaced-reader';

function approvalOf(sub: Subscription): FleetInstall['approval'] {
  const a = sub.spec.installPlanApproval;
  return a === 'Manual' || a === 'Automatic' ? a : undefined;
}

function v0Install(
  sub: Subscription,
  csvs: readonly ClusterServiceVersion[],
  plans: readonly InstallPlan[],
): ClusterInstall {
  const ns = sub.metadata?.namespace ?? '';
  const installed = sub.status?.installedCSV;
  const csv = csvs.find((c) => c.metadata?.namespace === ns && c.metadata?.name === installed);
  const upgrade = subscriptionUpgradeStatus({
    subscription: sub,
    installPlans: plans.filter((p) => p.metadata?.namespace === ns),
  });
  const status = csv ? csvDisplayStatus(csv) : undefined;
  return {
    package: sub.spec.name,
    olm: 'v0',
    namespace: ns,
    name: sub.metadata?.name ?? '',
    ...(csv?.spec?.version ? { version: csv.spec.version } : {}),
    ...(installed ? { csv: installed } : {}),
    ...(sub.spec.channel ? { channel: sub.spec.channel } : {}),
    ...(approvalOf(sub) ? { approval: approvalOf(sub) } : {}),
    health: status
      ? { severity: status.severity, label: status.label, detail: status.detail }
      : { severity: 'progressing', label: 'Not installed yet', detail: upgrade.detail },
    upgrade: { kind: upgrade.kind, label: upgrade.label, detail: upgrade.detail },
    deprecated: (sub.status?.conditions ?? []).some((c) => /Deprecated$/.test(c.type ?? '') && c.status === 'True'),
  };
}

async function listOr<T extends object>(read: () => Promise<T[]>, notes: string[]): Promise<T[]> {
  try {
    return await read();
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    notes.push(err.message);
    return [];
  }
}

/**
 * One cluster's installs of every package, as the person may see them: where the cluster refuses
 * a list of every namespace, from each namespace the person may use there (namespaced-reader.ts,
 * `candidates` being the names the page offers), and `namespaces` says which were read.
 */
export async function clusterInstalls(
  client: KubeClient,
  candidates: readonly string[] = [],
): Promise<ClusterInstalls> {
  const notes: string[] = [];
  const reader = namespacedReader(client, candidates);
  const [subs, csvs, plans, extensions] = await Promise.all([
    listOr(() => reader.list<Subscription>(SUBSCRIPTION_TYPE), notes),
    listOr(() => reader.list<ClusterServiceVersion>(CSV_TYPE, { labelSelector: `!${Keys.copiedFrom}` }), notes),
    listOr(() => reader.list<InstallPlan>(INSTALL_PLAN_TYPE), notes),
    extensionRows(client, undefined),
  ]);
  const installs: ClusterInstall[] = subs.map((s) => v0Install(s, csvs, plans));
  for (const e of extensions ?? []) {
    if (!e.package) continue;
    installs.push({
      package: e.package,
      olm: 'v1',
      name: e.name,
      ...(e.namespace ? { namespace: e.namespace } : {}),
      ...(e.version ? { version: e.version } : {}),
      health: { severity: e.status.severity, label: e.status.label, detail: e.status.detail },
      deprecated: e.deprecated,
    });
  }
  const readIn = reader.readIn();
  return { installs, notes, ...(readIn ? { namespaces: readIn } : {}) };
}

// The rows are built where the answers are read: on the server for the JSON answer, in the browser
// for the answer sent cluster by cluster; one pure module serves both.
export {
  commonVersion,
  fleetOperatorRows,
  type ClusterInstall,
  type ClusterInstalls,
} from '../../api/fleet-operator-rows';
