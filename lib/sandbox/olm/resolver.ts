// What the catalog operator installs for a Subscription (docs/olm/resolution.md): the
// channel's head or `startingCSV` for a fresh install, else the entry nearest the head that
// replaces, skips or skipRange-covers the installed CSV. The graph rules are lib/olm's; this file
// only finds the catalog, package and channel, and words the failures as OLM does.
import type { BundleModel, PackageModel } from '../../olm/fbc/model';
import { packageChannelGraph, packageGraphs } from '../../olm/graph/from-model';
import { freshInstallTarget, nextUpdate, nextUpdateAcrossChannels, type NextUpdate } from '../../olm/graph/update-path';
import type { PackageSource } from '../../olm/resolution/dependencies';
import { compareVersions, tryParseVersion } from '../../olm/semver/version';
import type { CatalogEntry } from './catalog-sources';

export interface SubscriptionSpec {
  name: string;
  source: string;
  sourceNamespace: string;
  channel?: string;
  startingCSV?: string;
}

export type Resolution =
  | {
      kind: 'install';
      pkg: PackageModel;
      bundle: BundleModel;
      channel: string;
      catalog: CatalogEntry;
      replaces?: string;
    }
  | { kind: 'none' }
  | { kind: 'failed'; reason: 'ConstraintsNotSatisfiable' | 'ErrorPreventedResolution'; message: string };

export interface InstalledFacts {
  name: string;
  version?: string;
}

/** The solver's words for a Subscription it cannot satisfy: why, then the subscription's own constraint. */
function unsatisfiable(subName: string, message: string): Resolution {
  return {
    kind: 'failed',
    reason: 'ConstraintsNotSatisfiable',
    message: `constraints not satisfiable: ${message}, subscription ${subName} exists`,
  };
}

/** The solver's list: `a, b and c` (or `or`). */
function listed(ids: readonly string[], last: 'and' | 'or'): string {
  return ids.length < 2 ? (ids[0] ?? '') : `${ids.slice(0, -1).join(', ')} ${last} ${ids[ids.length - 1]}`;
}

/**
 * A fresh Subscription whose package already has a CSV in the namespace that no Subscription
 * refers to (one deleted and made again, say): OLM's solver cannot keep the existing CSV and
 * install a candidate of the same package, and says which ones; it never adopts the CSV.
 */
function orphanConflict(
  subName: string,
  ns: string,
  pkg: PackageModel,
  channel: string,
  candidates: readonly string[],
  orphans: readonly string[],
  catalog: CatalogEntry,
): Resolution | undefined {
  const orphan = orphans.find((o) => pkg.bundles.has(o));
  if (!orphan) return undefined;
  const id = (b: string) => `${catalog.name}/${catalog.namespace}/${channel}/${b}`;
  const version = (b: string) => tryParseVersion(pkg.bundles.get(b)?.version);
  // Preferred first, as the solver tries them: the newest.
  const preferred = [...candidates].sort((a, b) => {
    const va = version(a);
    const vb = version(b);
    return va && vb ? compareVersions(vb, va) : b.localeCompare(a);
  });
  const origin = [`@existing/${ns}//${orphan}`, ...candidates.map(id)].sort();
  const requires =
    preferred.length === 1
      ? `subscription ${subName} requires ${id(preferred[0]!)}`
      : `subscription ${subName} requires at least one of ${listed(preferred.map(id), 'or')}`;
  return {
    kind: 'failed',
    reason: 'ConstraintsNotSatisfiable',
    message: `constraints not satisfiable: ${listed(origin, 'and')} originate from package ${pkg.name}, clusterserviceversion ${orphan} exists and is not referenced by a subscription, subscription ${subName} exists, ${requires}`,
  };
}

/**
 * `orphans`: the namespace's CSVs no Subscription refers to (copies aside), which a fresh
 * install of the same package conflicts with.
 */
export function resolveSubscription(
  subName: string,
  spec: SubscriptionSpec,
  catalogs: readonly CatalogEntry[],
  installed: InstalledFacts | undefined,
  ns = '',
  orphans: readonly string[] = [],
): Resolution {
  const catalog = catalogs.find((c) => c.name === spec.source && c.namespace === spec.sourceNamespace);
  const where = `the catalog referenced by subscription ${subName}`;
  if (!catalog?.catalog)
    return unsatisfiable(
      subName,
      `no operators found from catalog ${spec.source} in namespace ${spec.sourceNamespace} referenced by subscription ${subName}`,
    );
  const pkg = catalog.catalog.packages.get(spec.name);
  if (!pkg) return unsatisfiable(subName, `no operators found in package ${spec.name} in ${where}`);
  if (spec.channel && !pkg.channels.has(spec.channel))
    return unsatisfiable(subName, `no operators found in channel ${spec.channel} of package ${spec.name} in ${where}`);

  if (installed) {
    let next: NextUpdate;
    if (spec.channel) next = nextUpdate(packageChannelGraph(pkg, spec.channel)!, installed);
    else next = nextUpdateAcrossChannels(packageGraphs(pkg), pkg.defaultChannel, installed);
    if (next.kind === 'error') return { kind: 'failed', reason: 'ErrorPreventedResolution', message: next.message };
    if (next.kind === 'none') return { kind: 'none' };
    return {
      kind: 'install',
      pkg,
      bundle: pkg.bundles.get(next.step.to)!,
      channel: next.step.channel,
      catalog,
      replaces: installed.name,
    };
  }

  const channel = spec.channel || pkg.defaultChannel || [...pkg.channels.keys()].sort()[0]!;
  const entries = pkg.channels.get(channel)?.entries ?? [];
  const conflict = orphanConflict(
    subName,
    ns,
    pkg,
    channel,
    spec.startingCSV
      ? entries.filter((e) => e.name === spec.startingCSV).map((e) => e.name)
      : entries.map((e) => e.name),
    orphans,
    catalog,
  );
  if (conflict) return conflict;
  if (spec.startingCSV) {
    const entry = pkg.channels.get(channel)?.entries.find((e) => e.name === spec.startingCSV);
    const bundle = entry ? pkg.bundles.get(entry.name) : undefined;
    if (!bundle)
      return unsatisfiable(
        subName,
        `no operators found with name ${spec.startingCSV} in channel ${channel} of package ${spec.name} in ${where}`,
      );
    return { kind: 'install', pkg, bundle, channel, catalog, replaces: entry?.replaces };
  }
  const target = freshInstallTarget(packageChannelGraph(pkg, channel)!);
  if ('error' in target) return { kind: 'failed', reason: 'ErrorPreventedResolution', message: target.error };
  const entry = pkg.channels.get(channel)!.entries.find((e) => e.name === target.name);
  return { kind: 'install', pkg, bundle: pkg.bundles.get(target.name)!, channel, catalog, replaces: entry?.replaces };
}

/** The catalogs as dependency sources for lib/olm's rules, each tagged with its entry. */
export function dependencySources(catalogs: readonly CatalogEntry[]): PackageSource<CatalogEntry>[] {
  return [...catalogs]
    .sort((a, b) => a.key.localeCompare(b.key))
    .map((c) => ({ tag: c, packages: c.catalog ? [...c.catalog.packages.values()] : [] }));
}
