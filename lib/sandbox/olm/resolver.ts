// What the catalog operator installs for a Subscription (../shared/olm-behaviour.md §6.2): the
// channel's head or `startingCSV` for a fresh install, else the entry nearest the head that
// replaces, skips or skipRange-covers the installed CSV. The graph rules are lib/olm's; this file
// only finds the catalog, package and channel, and words the failures as OLM does.
import type { BundleModel, PackageModel } from '../../olm/fbc/model';
import { packageChannelGraph, packageGraphs } from '../../olm/graph/from-model';
import { freshInstallTarget, nextUpdate, nextUpdateAcrossChannels, type NextUpdate } from '../../olm/graph/update-path';
import { rangeContains, tryParseRange } from '../../olm/semver/range';
import { tryParseVersionTolerant } from '../../olm/semver/version';
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

function unsatisfiable(message: string): Resolution {
  return { kind: 'failed', reason: 'ConstraintsNotSatisfiable', message: `constraints not satisfiable: ${message}` };
}

export function resolveSubscription(subName: string, spec: SubscriptionSpec, catalogs: readonly CatalogEntry[], installed: InstalledFacts | undefined): Resolution {
  const catalog = catalogs.find((c) => c.name === spec.source && c.namespace === spec.sourceNamespace);
  const where = `the catalog referenced by subscription ${subName}`;
  if (!catalog?.catalog) return unsatisfiable(`no operators found from catalog ${spec.source} in namespace ${spec.sourceNamespace} referenced by subscription ${subName}`);
  const pkg = catalog.catalog.packages.get(spec.name);
  if (!pkg) return unsatisfiable(`no operators found in package ${spec.name} in ${where}`);
  if (spec.channel && !pkg.channels.has(spec.channel)) return unsatisfiable(`no operators found in channel ${spec.channel} of package ${spec.name} in ${where}`);

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
    if (!bundle) return unsatisfiable(`no operators found with name ${spec.startingCSV} in channel ${channel} of package ${spec.name} in ${where}`);
    return { kind: 'install', pkg, bundle, channel, catalog, replaces: entry?.replaces };
  }
  const target = freshInstallTarget(packageChannelGraph(pkg, channel)!);
  if ('error' in target) return { kind: 'failed', reason: 'ErrorPreventedResolution', message: target.error };
  const entry = pkg.channels.get(channel)!.entries.find((e) => e.name === target.name);
  return { kind: 'install', pkg, bundle: pkg.bundles.get(target.name)!, channel, catalog, replaces: entry?.replaces };
}

export interface ProvidedApi {
  group: string;
  version: string;
  kind: string;
}

/**
 * The bundle's dependencies that nothing satisfies: `olm.gvk.required` not provided by an
 * installed CSV or any bundle of the catalogs, `olm.package.required` with no bundle of that
 * package in range. Worded as the resolver words them.
 */
export function unmetDependencies(bundle: BundleModel, catalogs: readonly CatalogEntry[], installedApis: readonly ProvidedApi[]): string[] {
  const problems: string[] = [];
  const allPackages = catalogs.flatMap((c) => (c.catalog ? [...c.catalog.packages.values()] : []));
  for (const g of bundle.requiredApis) {
    const installed = installedApis.some((a) => a.group === g.group && a.version === g.version && a.kind === g.kind);
    const offered = allPackages.some((p) => [...p.bundles.values()].some((b) => b.providedApis.some((a) => a.group === g.group && a.version === g.version && a.kind === g.kind)));
    if (!installed && !offered) problems.push(`bundle ${bundle.name} requires an operator providing an API with group: ${g.group}, version: ${g.version}, kind: ${g.kind}`);
  }
  for (const req of bundle.requiredPackages) {
    const parsed = tryParseRange(req.versionRange);
    const range = 'range' in parsed ? parsed.range : undefined;
    const pkg = allPackages.find((p) => p.name === req.packageName);
    const ok = pkg && [...pkg.bundles.values()].some((b) => {
      const v = tryParseVersionTolerant(b.version);
      return v && (!range || rangeContains(range, v));
    });
    if (!ok) problems.push(`bundle ${bundle.name} requires an operator with package: ${req.packageName} and with version in range: ${req.versionRange}`);
  }
  return problems;
}

export interface DependencyInstall {
  pkg: PackageModel;
  bundle: BundleModel;
  channel: string;
  catalog: CatalogEntry;
}

/**
 * The operators to install with a bundle so that its dependencies are met, as OLM adds them to
 * the same InstallPlan: for each required API not provided in the namespace (or by the plan), the
 * default-channel head of a package providing it; for each required package not subscribed in
 * the namespace, the newest entry of its default channel within the range. Recursive; `provided`
 * and `subscribed` say what the namespace already has.
 */
export function dependencyInstalls(bundle: BundleModel, catalogs: readonly CatalogEntry[], provided: readonly ProvidedApi[], subscribed: ReadonlySet<string>): DependencyInstall[] {
  const out: DependencyInstall[] = [];
  const have = [...provided];
  const packages = new Set(subscribed);
  const sorted = [...catalogs].sort((a, b) => a.key.localeCompare(b.key));
  const add = (d: DependencyInstall) => {
    out.push(d);
    packages.add(d.pkg.name);
    have.push(...d.bundle.providedApis);
    visit(d.bundle);
  };
  const visit = (b: BundleModel) => {
    for (const g of b.requiredApis) {
      if (have.some((a) => a.group === g.group && a.version === g.version && a.kind === g.kind)) continue;
      for (const c of sorted) {
        const found = [...(c.catalog?.packages.values() ?? [])].sort((x, y) => x.name.localeCompare(y.name)).find((p) => {
          const head = p.defaultChannel ? headOfChannel(p, p.defaultChannel) : undefined;
          return head?.providedApis.some((a) => a.group === g.group && a.version === g.version && a.kind === g.kind);
        });
        if (found) {
          add({ pkg: found, bundle: headOfChannel(found, found.defaultChannel!)!, channel: found.defaultChannel!, catalog: c });
          break;
        }
      }
    }
    for (const req of b.requiredPackages) {
      if (packages.has(req.packageName)) continue;
      const parsed = tryParseRange(req.versionRange);
      const range = 'range' in parsed ? parsed.range : undefined;
      for (const c of sorted) {
        const p = c.catalog?.packages.get(req.packageName);
        if (!p?.defaultChannel) continue;
        const graph = packageChannelGraph(p, p.defaultChannel)!;
        const pick = graph.order.map((n) => p.bundles.get(n)!).find((x) => {
          const v = tryParseVersionTolerant(x.version);
          return v && (!range || rangeContains(range, v));
        });
        if (pick) {
          add({ pkg: p, bundle: pick, channel: p.defaultChannel, catalog: c });
          break;
        }
      }
    }
  };
  visit(bundle);
  return out;
}

function headOfChannel(p: PackageModel, channel: string): BundleModel | undefined {
  const g = packageChannelGraph(p, channel);
  return g?.head ? p.bundles.get(g.head) : undefined;
}
