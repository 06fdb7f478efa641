// A bundle's version as OLM v1 reads it: the first olm.package property's `version`, parsed strictly
// (blang/semver Parse) — operator-controller bundleutil/bundle.go GetVersion.
import type { FbcBundle } from '../fbc/types';
import { parseVersion, SemverError, type SemVer } from '../semver/version';

export function bundleVersion(b: Pick<FbcBundle, 'name' | 'properties'>): { version: SemVer } | { error: string } {
  const p = b.properties?.find((x) => x.type === 'olm.package');
  if (!p) return { error: `no package property found in bundle "${b.name}"` };
  const raw = (p.value as { version?: unknown } | null)?.version;
  try {
    return { version: parseVersion(typeof raw === 'string' ? raw : '') };
  } catch (err) {
    return { error: `error parsing bundle "${b.name}" version "${String(raw)}": ${(err as SemverError).message}` };
  }
}
