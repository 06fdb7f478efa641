// Operators across the fleet: each cluster's installs read as the person (OLM v0's Subscriptions
// with their CSVs and InstallPlans, OLM v1's ClusterExtensions), then one row per package with a
// column per cluster, and each install marked where its version differs from the version most of
// the fleet runs. Reading is per cluster; the rows are built from what each cluster answered for
// itself, so nothing one cluster said is shown under another.
import type { FleetInstall, FleetOperatorRow, PerCluster } from '../../api/fleet';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { CSV_TYPE, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { Keys } from '../../olm/resources/common';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { csvDisplayStatus } from '../../olm/status/csv-status';
import { subscriptionUpgradeStatus } from '../../olm/status/subscription-status';
import { extensionRows } from '../olm-v1/extension-rows';

/** One cluster's installs before drift is known (it depends on the whole fleet). */
export type ClusterInstall = Omit<FleetInstall, 'drift'> & { package: string };

export interface ClusterInstalls {
  installs: ClusterInstall[];
  /** What the person may not read there, in the cluster's words. */
  notes: string[];
}

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

async function listOr<T extends object>(read: () => Promise<{ items: T[] }>, notes: string[]): Promise<T[]> {
  try {
    return (await read()).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    notes.push(err.message);
    return [];
  }
}

/** One cluster's installs of every package, as the person may see them. */
export async function clusterInstalls(client: KubeClient): Promise<ClusterInstalls> {
  const notes: string[] = [];
  const [subs, csvs, plans, extensions] = await Promise.all([
    listOr(() => client.listAll<Subscription>(SUBSCRIPTION_TYPE), notes),
    listOr(() => client.listAll<ClusterServiceVersion>(CSV_TYPE, { labelSelector: `!${Keys.copiedFrom}` }), notes),
    listOr(() => client.listAll<InstallPlan>(INSTALL_PLAN_TYPE), notes),
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
  return { installs, notes };
}

/** Dotted numbers compared as numbers (1.10.0 after 1.9.0); anything else as text. */
function compareVersions(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

/** The version most installs run; a tie goes to the highest of the tied versions. */
export function commonVersion(versions: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of versions) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | undefined;
  for (const [v, n] of counts) {
    const bn = best === undefined ? 0 : counts.get(best)!;
    if (n > bn || (n === bn && best !== undefined && compareVersions(v, best) > 0)) best = v;
  }
  return best;
}

/** One row per package, a column per cluster that answered; drift from the most common version. */
export function fleetOperatorRows(clusters: readonly PerCluster<ClusterInstalls>[]): FleetOperatorRow[] {
  const byPackage = new Map<string, { cluster: string; install: ClusterInstall }[]>();
  for (const c of clusters) {
    if (!c.ok) continue;
    for (const install of c.value.installs) {
      const list = byPackage.get(install.package) ?? [];
      list.push({ cluster: c.name, install });
      byPackage.set(install.package, list);
    }
  }
  return [...byPackage.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([pkg, list]) => {
      const common = commonVersion(list.flatMap((l) => (l.install.version ? [l.install.version] : [])));
      const installs: Record<string, FleetInstall[]> = {};
      for (const { cluster, install } of list) {
        const { package: _pkg, ...rest } = install;
        void _pkg;
        (installs[cluster] ??= []).push({
          ...rest,
          drift: common !== undefined && rest.version !== undefined && rest.version !== common,
        });
      }
      return { package: pkg, ...(common ? { commonVersion: common } : {}), installs };
    });
}
