// OLM v1's resolution of a ClusterExtension to one bundle (operator-controller v1.2.0
// internal/operator-controller/resolve/catalog.go): per catalog, the bundles of the package that
// are in one of `channels` (no default channel: without channels every bundle counts), satisfy
// `version`, and — under CatalogProvided with a bundle installed — succeed it; the best of a catalog
// is non-deprecated first, then the highest version. Across catalogs non-deprecated beats
// deprecated, then a higher `priority` breaks a tie only when the top two differ; anything but one
// candidate is an error in operator-controller's words. docs/olm-v1/resolution.md.
import type { DeclarativeConfig, FbcBundle, FbcDeprecations } from '../fbc/types';
import { compareVersions, formatVersion } from '../semver/version';
import { bundleVersion } from './bundle-version';
import { successorsOf, type InstalledBundle } from './successors';
import { parseVersionConstraints, satisfies } from './version-range';

export type UpgradeConstraintPolicy = 'CatalogProvided' | 'SelfCertified';

export interface ResolveRequest {
  packageName: string;
  version?: string;
  channels?: string[];
  upgradeConstraintPolicy?: UpgradeConstraintPolicy;
  installed?: InstalledBundle;
}

/** One catalog walked, in list order: its package's FBC (empty when absent), or why it could not be read. */
export interface CatalogPackage {
  catalog: string;
  priority: number;
  fbc: DeclarativeConfig | { error: string };
}

export type Resolution =
  { bundle: FbcBundle; version: string; catalog: string; deprecation?: FbcDeprecations } | { error: string };

const isEmpty = (f: DeclarativeConfig) =>
  !f.packages.length && !f.channels.length && !f.bundles.length && !f.deprecations.length && !f.others.length;

const deprecatedBundles = (d?: FbcDeprecations) =>
  new Set(d?.entries.filter((e) => e.reference.schema === 'olm.bundle').map((e) => e.reference.name ?? '') ?? []);

// compare.ByVersion: highest first, bundles without a readable version last.
function byVersion(a: FbcBundle, b: FbcBundle): number {
  const va = bundleVersion(a);
  const vb = bundleVersion(b);
  if ('error' in va || 'error' in vb) return 'error' in va && !('error' in vb) ? 1 : !('error' in va) ? -1 : 0;
  return compareVersions(vb.version, va.version);
}

const UNSUPPORTED_DEPENDENCIES = ['olm.package.required', 'olm.gvk.required', 'olm.constraint'];

function errorText(req: ResolveRequest, found: string[]): string {
  const parts: string[] = [];
  if (req.installed) parts.push(`error upgrading from currently installed version "${req.installed.version}":`);
  parts.push(`${found.length > 1 ? 'found bundles' : 'no bundles found'} for package "${req.packageName}"`);
  if (req.version) parts.push(`matching version "${req.version}"`);
  if (req.channels?.length) parts.push(`in channels [${req.channels.join(' ')}]`);
  if (found.length > 1) parts.push(`in multiple catalogs with the same priority [${[...found].sort().join(' ')}]`);
  return parts.join(' ');
}

export function resolveBundle(req: ResolveRequest, catalogs: readonly CatalogPackage[]): Resolution {
  let range: ReturnType<typeof parseVersionConstraints> | undefined;
  if (req.version) {
    range = parseVersionConstraints(req.version);
    if ('error' in range) return { error: `desired version range "${req.version}" is invalid: ${range.error}` };
  }
  type Found = { bundle: FbcBundle; catalog: string; priority: number; deprecation?: FbcDeprecations };
  let found: Found[] = [];
  let priorDeprecation: FbcDeprecations | undefined;
  for (const cat of catalogs) {
    if ('error' in cat.fbc)
      return {
        error: `error walking catalogs: error getting package "${req.packageName}" from catalog "${cat.catalog}": ${cat.fbc.error}`,
      };
    const fbc = cat.fbc;
    if (isEmpty(fbc)) continue;
    const preds: ((b: FbcBundle) => boolean)[] = [];
    // With channels given, only those channels' entries are upgrade edges too.
    let channels = fbc.channels;
    if (req.channels?.length) {
      const wanted = new Set(req.channels);
      channels = channels.filter((c) => wanted.has(c.name));
      const inChannel = new Set(channels.flatMap((c) => c.entries.map((e) => e.name)));
      preds.push((b) => inChannel.has(b.name));
    }
    if (range && !('error' in range)) {
      const r = range;
      preds.push((b) => {
        const v = bundleVersion(b);
        return !('error' in v) && satisfies(r, v.version);
      });
    }
    if (req.upgradeConstraintPolicy !== 'SelfCertified' && req.installed) {
      const successor = successorsOf(req.installed, channels);
      if ('error' in successor) return { error: `error walking catalogs: ${successor.error}` };
      preds.push(successor);
    }
    const deprecation = fbc.deprecations[0];
    const deprecated = deprecatedBundles(deprecation);
    const candidates = fbc.bundles
      .filter((b) => preds.every((p) => p(b)))
      .sort((a, b) => Number(deprecated.has(a.name)) - Number(deprecated.has(b.name)) || byVersion(a, b));
    const best = candidates[0];
    if (!best) continue;
    if (found.length) {
      const currentDeprecated = deprecated.has(best.name);
      const priorDeprecated = deprecatedBundles(priorDeprecation).has(found[found.length - 1]!.bundle.name);
      if (currentDeprecated && !priorDeprecated) continue;
      if (!currentDeprecated && priorDeprecated) found = [];
    }
    found.push({ bundle: best, catalog: cat.catalog, priority: cat.priority, deprecation });
    priorDeprecation = deprecation;
  }
  if (found.length > 1) {
    found = [...found].sort((a, b) => b.priority - a.priority);
    if (found[0]!.priority !== found[1]!.priority) found = [found[0]!];
  }
  if (found.length !== 1)
    return {
      error: errorText(
        req,
        found.map((f) => f.catalog),
      ),
    };
  const winner = found[0]!;
  const v = bundleVersion(winner.bundle);
  if ('error' in v)
    return { error: `error getting resolved bundle version for bundle "${winner.bundle.name}": ${v.error}` };
  const dep = winner.bundle.properties?.find((p) => UNSUPPORTED_DEPENDENCIES.includes(p.type));
  if (dep)
    return {
      error: `validating bundle "${winner.bundle.name}": bundle "${winner.bundle.name}" has a dependency declared via property "${dep.type}" which is currently not supported`,
    };
  return {
    bundle: winner.bundle,
    version: formatVersion(v.version),
    catalog: winner.catalog,
    ...(priorDeprecation ? { deprecation: priorDeprecation } : {}),
  };
}
