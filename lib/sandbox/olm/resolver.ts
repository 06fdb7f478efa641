// What the catalog operator installs for a Subscription (../shared/olm-behaviour.md §6.2): the
// channel's head or `startingCSV` for a fresh install, else the entry nearest the head that
// replaces, skips or skipRange-covers the installed CSV. The graph rules are lib/olm's; this file
// only finds the catalog, package and channel, and words the failures as OLM does.
import type { BundleModel, PackageModel } from '../../olm/fbc/model';
import { packageChannelGraph, packageGraphs } from '../../olm/graph/from-model';
import { freshInstallTarget, nextUpdate, nextUpdateAcrossChannels, type NextUpdate } from '../../olm/graph/update-path';
import type { PackageSource } from '../../olm/resolution/dependencies';
import type { CatalogEntry } from './catalog-sources';

export interface SubscriptionSpec {
  name: string;
  source: string;
  sourceNamespace: string;
  channel?: string;
  startingCSV?: string;
}

export type Resolution =
  | { kind: 'install'; pkg: PackageModel; bundle: BundleModel; channel: string; catalog: CatalogEntry; replaces?: string }
  | { kind: 'none' }
  | { kind: 'failed'; reason: 'ConstraintsNotSatisfiable' | 'ErrorPreventedResolution'; message: string };

export interface InstalledFacts {
  name: string;
  version?: string;
}

/** The solver's words for a Subscription it cannot satisfy: why, then the subscription's own constraint. */
function unsatisfiable(subName: string, message: string): Resolution {
  return { kind: 'failed', reason: 'ConstraintsNotSatisfiable', message: `constraints not satisfiable: ${message}, subscription ${subName} exists` };
}

export function resolveSubscription(subName: string, spec: SubscriptionSpec, catalogs: readonly CatalogEntry[], installed: InstalledFacts | undefined): Resolution {
  const catalog = catalogs.find((c) => c.name === spec.source && c.namespace === spec.sourceNamespace);
  const where = `the catalog referenced by subscription ${subName}`;
  if (!catalog?.catalog) return unsatisfiable(subName, `no operators found from catalog ${spec.source} in namespace ${spec.sourceNamespace} referenced by subscription ${subName}`);
  const pkg = catalog.catalog.packages.get(spec.name);
  if (!pkg) return unsatisfiable(subName, `no operators found in package ${spec.name} in ${where}`);
  if (spec.channel && !pkg.channels.has(spec.channel)) return unsatisfiable(subName, `no operators found in channel ${spec.channel} of package ${spec.name} in ${where}`);

  if (installed) {
    let next: NextUpdate;
    if (spec.channel) next = nextUpdate(packageChannelGraph(pkg, spec.channel)!, installed);
    else next = nextUpdateAcrossChannels(packageGraphs(pkg), pkg.defaultChannel, installed);
    if (next.kind === 'error') return { kind: 'failed', reason: 'ErrorPreventedResolution', message: next.message };
    if (next.kind === 'none') return { kind: 'none' };
    return { kind: 'install', pkg, bundle: pkg.bundles.get(next.step.to)!, channel: next.step.channel, catalog, replaces: installed.name };
  }

  const channel = spec.channel || pkg.defaultChannel || [...pkg.channels.keys()].sort()[0]!;
  if (spec.startingCSV) {
    const entry = pkg.channels.get(channel)?.entries.find((e) => e.name === spec.startingCSV);
    const bundle = entry ? pkg.bundles.get(entry.name) : undefined;
    if (!bundle) return unsatisfiable(subName, `no operators found with name ${spec.startingCSV} in channel ${channel} of package ${spec.name} in ${where}`);
    return { kind: 'install', pkg, bundle, channel, catalog, replaces: entry?.replaces };
  }
  const target = freshInstallTarget(packageChannelGraph(pkg, channel)!);
  if ('error' in target) return { kind: 'failed', reason: 'ErrorPreventedResolution', message: target.error };
  const entry = pkg.channels.get(channel)!.entries.find((e) => e.name === target.name);
  return { kind: 'install', pkg, bundle: pkg.bundles.get(target.name)!, channel, catalog, replaces: entry?.replaces };
}

/** The catalogs as dependency sources for lib/olm's rules, each tagged with its entry. */
export function dependencySources(catalogs: readonly CatalogEntry[]): PackageSource<CatalogEntry>[] {
  return [...catalogs].sort((a, b) => a.key.localeCompare(b.key)).map((c) => ({ tag: c, packages: c.catalog ? [...c.catalog.packages.values()] : [] }));
}
