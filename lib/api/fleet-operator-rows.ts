// Operators across the fleet as rows: one per package, a column per cluster that answered, each
// install marked where its version differs from the version most of the fleet runs. Pure, so the
// server (the whole answer at once) and the browser (rows rebuilt as each cluster's answer arrives)
// build the same rows from the same per-cluster answers; nothing one cluster said lands under another.
import type { FleetInstall, FleetOperatorRow, PerCluster } from './fleet';

/** One cluster's installs before drift is known (it depends on the whole fleet). */
export type ClusterInstall = Omit<FleetInstall, 'drift'> & { package: string };

export interface ClusterInstalls {
  installs: ClusterInstall[];
  /** What the person may not read there, in the cluster's words. */
  notes: string[];
  /** The namespaces read one by one where the cluster refused a list of every namespace (a namespace admin). */
  namespaces?: string[];
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
