// `opm validate`'s rules for one package, every problem collected (operator-registry's
// alpha/model Validate; docs/olm/catalogs.md#validation). Problems name the package and,
// where they belong to one, the channel or bundle and the blob they come from.
import { findChannelProblems } from '../graph/channel-problems';
import { tryParseRange } from '../semver/range';
import { formatVersion, parseVersion, SemverError } from '../semver/version';
import type { ModelProblem, PackageModel } from './model';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function validatePackage(pkg: PackageModel): ModelProblem[] {
  const problems: ModelProblem[] = [];
  const add = (p: Omit<ModelProblem, 'package'>) => problems.push({ package: pkg.name, ...p });

  if (!pkg.name) add({ origin: pkg.origin, message: 'package name must be set' });
  else if (pkg.name.length > 63 || !DNS1123_LABEL.test(pkg.name)) {
    add({ origin: pkg.origin, message: `package name "${pkg.name}" is not a valid DNS-1123 label` });
  }
  if (!pkg.defaultChannel) add({ origin: pkg.origin, message: 'default channel must be set' });
  else if (!pkg.channels.has(pkg.defaultChannel))
    add({ origin: pkg.origin, message: `default channel "${pkg.defaultChannel}" not found in channels list` });
  if (pkg.channels.size === 0) add({ origin: pkg.origin, message: 'package must contain at least one channel' });

  const inSomeChannel = new Set<string>();
  for (const ch of pkg.channels.values()) {
    const at = { channel: ch.name, origin: ch.origin };
    if (!ch.name) add({ ...at, message: 'channel name must be set' });
    const seen = new Set<string>();
    for (const e of ch.entries) {
      inSomeChannel.add(e.name);
      if (seen.has(e.name)) add({ ...at, message: `duplicate entry "${e.name}"` });
      seen.add(e.name);
      if (!pkg.bundles.has(e.name))
        add({ ...at, message: `channel entry "${e.name}" refers to a bundle that is not in the package` });
      if (e.skips?.some((s) => s === ''))
        add({ ...at, message: `entry "${e.name}": skips must not contain empty names` });
      if (e.skipRange) {
        const r = tryParseRange(e.skipRange);
        if ('error' in r) add({ ...at, message: `entry "${e.name}": invalid skipRange: ${r.error.message}` });
      }
    }
    for (const p of findChannelProblems(ch.entries)) add({ ...at, message: p.message });
  }

  const byVersion = new Map<string, string>();
  for (const b of pkg.bundles.values()) {
    const at = { bundle: b.name, origin: b.origin };
    if (!b.name) add({ ...at, message: 'bundle name must be set' });
    if (!inSomeChannel.has(b.name)) add({ ...at, message: `bundle "${b.name}" is not in any channel` });
    if (b.packageProperties !== 1) {
      add({ ...at, message: `bundle must have exactly 1 "olm.package" property, found ${b.packageProperties}` });
      continue;
    }
    if (b.propertyPackage !== pkg.name) {
      add({
        ...at,
        message: `"olm.package" property names package "${b.propertyPackage ?? ''}", but the bundle belongs to "${pkg.name}"`,
      });
    }
    if (b.version === undefined) {
      add({ ...at, message: '"olm.package" property has no version' });
      continue;
    }
    try {
      const v = parseVersion(b.version);
      // Build metadata does not order versions, but it does tell bundles apart: gatekeeper ships
      // 3.15.1 and 3.15.1+0.1725401534.p side by side, and opm accepts that catalog.
      const key = formatVersion(v);
      const other = byVersion.get(key);
      if (other) add({ ...at, message: `bundles "${other}" and "${b.name}" have the same version ${b.version}` });
      else byVersion.set(key, b.name);
    } catch (err) {
      add({ ...at, message: err instanceof SemverError ? err.message : `invalid version "${b.version}"` });
    }
  }
  return problems;
}
