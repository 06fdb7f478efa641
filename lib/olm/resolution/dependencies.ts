// Dependencies as OLM's resolver treats them (docs/olm/resolution.md#dependencies): a bundle's
// `olm.gvk.required` and `olm.package.required` must be met by what the namespace has or by
// bundles the catalogs offer; an operator installed to meet one is the default-channel head of a
// package providing the API, or the newest default-channel entry within the package range; and an
// upgrade may not take a package outside a range another installed operator requires.
import type { BundleModel, Gvk, PackageModel } from '../fbc/model';
import { packageChannelGraph } from '../graph/from-model';
import { rangeContains, tryParseRange } from '../semver/range';
import { tryParseVersionTolerant } from '../semver/version';

/** A catalog's packages, with whatever the caller needs to know where they came from. */
export interface PackageSource<T> {
  tag: T;
  packages: Iterable<PackageModel>;
}

export interface DependencyInstall<T> {
  pkg: PackageModel;
  bundle: BundleModel;
  channel: string;
  source: T;
}

export interface PackageRange {
  packageName: string;
  versionRange: string;
}

const sameGvk = (a: Gvk, b: Gvk) => a.group === b.group && a.version === b.version && a.kind === b.kind;

function headOf(p: PackageModel, channel: string): BundleModel | undefined {
  const g = packageChannelGraph(p, channel);
  return g?.head ? p.bundles.get(g.head) : undefined;
}

function inRange(version: string | undefined, range: string): boolean {
  const v = tryParseVersionTolerant(version);
  if (!v) return false;
  const parsed = tryParseRange(range);
  // An unparsable range constrains nothing, as OLM ignores it.
  return !('range' in parsed) || rangeContains(parsed.range, v);
}

/** The dependencies nothing satisfies, worded as the resolver words them. */
export function unmetDependencies<T>(
  bundle: BundleModel,
  sources: readonly PackageSource<T>[],
  installedApis: readonly Gvk[],
): string[] {
  const all = sources.flatMap((s) => [...s.packages]);
  const problems: string[] = [];
  for (const g of bundle.requiredApis) {
    const installed = installedApis.some((a) => sameGvk(a, g));
    const offered = all.some((p) => [...p.bundles.values()].some((b) => b.providedApis.some((a) => sameGvk(a, g))));
    if (!installed && !offered)
      problems.push(
        `bundle ${bundle.name} requires an operator providing an API with group: ${g.group}, version: ${g.version}, kind: ${g.kind}`,
      );
  }
  for (const req of bundle.requiredPackages) {
    const pkg = all.find((p) => p.name === req.packageName);
    if (!pkg || ![...pkg.bundles.values()].some((b) => inRange(b.version, req.versionRange))) {
      problems.push(
        `bundle ${bundle.name} requires an operator with package: ${req.packageName} and with version in range: ${req.versionRange}`,
      );
    }
  }
  return problems;
}

/**
 * What to install with `bundle` so its dependencies are met, recursively; `provided` and
 * `subscribed` are what the namespace already has. Sources are tried in the order given.
 */
export function dependencyInstalls<T>(
  bundle: BundleModel,
  sources: readonly PackageSource<T>[],
  provided: readonly Gvk[],
  subscribed: ReadonlySet<string>,
): DependencyInstall<T>[] {
  const out: DependencyInstall<T>[] = [];
  const have = [...provided];
  const packages = new Set(subscribed);
  const add = (d: DependencyInstall<T>) => {
    out.push(d);
    packages.add(d.pkg.name);
    have.push(...d.bundle.providedApis);
    visit(d.bundle);
  };
  const visit = (b: BundleModel) => {
    // Package ranges first: the version they pick may already provide a required API, as the
    // solver would choose one bundle meeting both rather than the API provider's head.
    for (const req of b.requiredPackages) {
      if (packages.has(req.packageName)) continue;
      for (const s of sources) {
        const p = [...s.packages].find((x) => x.name === req.packageName);
        if (!p?.defaultChannel) continue;
        const pick = packageChannelGraph(p, p.defaultChannel)!
          .order.map((n) => p.bundles.get(n)!)
          .find((x) => inRange(x.version, req.versionRange));
        if (pick) {
          add({ pkg: p, bundle: pick, channel: p.defaultChannel, source: s.tag });
          break;
        }
      }
    }
    for (const g of b.requiredApis) {
      if (have.some((a) => sameGvk(a, g))) continue;
      for (const s of sources) {
        const found = [...s.packages]
          .sort((x, y) => x.name.localeCompare(y.name))
          .find((p) =>
            p.defaultChannel ? headOf(p, p.defaultChannel)?.providedApis.some((a) => sameGvk(a, g)) : false,
          );
        if (found) {
          add({
            pkg: found,
            bundle: headOf(found, found.defaultChannel!)!,
            channel: found.defaultChannel!,
            source: s.tag,
          });
          break;
        }
      }
    }
  };
  visit(bundle);
  return out;
}

/** Whether `version` of a package stays inside every range that installed operators require of it. */
export function satisfiesRequiredRanges(
  packageName: string,
  version: string | undefined,
  required: readonly PackageRange[],
): boolean {
  if (!tryParseVersionTolerant(version)) return true;
  return required.filter((r) => r.packageName === packageName).every((r) => inRange(version, r.versionRange));
}
