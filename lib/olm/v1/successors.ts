// Which bundles OLM v1 lets an installed bundle move to under upgradeConstraintPolicy
// CatalogProvided (operator-controller catalogmetadata/filter/successors.go): a bundle whose channel
// entry replaces the installed one, skips it, or whose skipRange (blang syntax) holds its version —
// one hop, no chains — or a bundle of the same version. Only entries of the channels given count.
// docs/olm-v1/resolution.md#upgrades.
import type { FbcBundle, FbcChannel } from '../fbc/types';
import { tryParseRange, rangeContains } from '../semver/range';
import { tryParseVersion } from '../semver/version';
import { bundleVersion } from './bundle-version';
import { parseVersionConstraints, satisfies } from './version-range';

export interface InstalledBundle {
  name: string;
  version: string;
}

/** A predicate over bundles, or the error operator-controller gives for an unreadable installed version. */
export function successorsOf(
  installed: InstalledBundle,
  channels: readonly FbcChannel[],
): ((b: FbcBundle) => boolean) | { error: string } {
  const same = parseVersionConstraints(installed.version);
  const blang = tryParseVersion(installed.version);
  if ('error' in same || !blang)
    return {
      error: `error finding upgrade edges: parsing installed bundle "${installed.name}" version "${installed.version}": Invalid Semantic Version`,
    };
  const isSuccessorEntry = (e: FbcChannel['entries'][number]) => {
    if (e.replaces === installed.name) return true;
    if (e.skips?.includes(installed.name)) return true;
    if (e.skipRange) {
      const r = tryParseRange(e.skipRange);
      // An unreadable skipRange is no edge.
      if ('range' in r && rangeContains(r.range, blang)) return true;
    }
    return false;
  };
  return (b) => {
    if (channels.some((ch) => ch.entries.some((e) => e.name === b.name && isSuccessorEntry(e)))) return true;
    const v = bundleVersion(b);
    return !('error' in v) && satisfies(same, v.version);
  };
}
