// The version a person asks OLM v1 for, as the ClusterExtension's `spec.source.catalog.version`
// (docs/olm-v1/resolution.md, "Version ranges"): nothing (v1 takes the highest version the channels
// and catalogs allow), one exact version, "this minor" (`~X.Y`: Masterminds' tilde, >=X.Y.0 <X.Y+1.0),
// "this major" (`^X`: Masterminds' caret, >=X.0.0 <X+1.0.0; `^0` is <1.0.0), or a range typed by
// hand, read by the same parser v1 uses (version-range.ts) and refused in v1's words.
// Pre-releases: a range whose versions carry none never matches one (Masterminds), said in `explain`.
import { parseVersion } from '../semver/version';
import { parseVersionConstraints } from './version-range';

export type VersionChoice =
  | { kind: 'latest' }
  | { kind: 'exact'; version: string }
  | { kind: 'minor'; version: string }
  | { kind: 'major'; version: string }
  | { kind: 'custom'; range: string };

export type VersionChoiceKind = VersionChoice['kind'];

/** The `version` field for the choice (absent for the latest), or why it cannot be one, in v1's words. */
export function versionField(choice: VersionChoice): { version?: string } | { error: string } {
  if (choice.kind === 'latest') return {};
  if (choice.kind === 'custom') {
    const range = choice.range.trim();
    if (!range) return { error: 'type a version or a range, such as >=1.2.0 <2.0.0' };
    const parsed = parseVersionConstraints(range);
    // operator-controller resolve/catalog.go: the same wrapping as a ClusterExtension gets.
    if ('error' in parsed) return { error: `desired version range "${range}" is invalid: ${parsed.error}` };
    return { version: range };
  }
  let v;
  try {
    v = parseVersion(choice.version);
  } catch {
    return { error: `${choice.version} is not a version of the catalog` };
  }
  if (choice.kind === 'exact') return { version: choice.version };
  if (choice.kind === 'minor') return { version: `~${v.major}.${v.minor}` };
  return { version: `^${v.major}` };
}

/** What the choice lets v1 install, in words. */
export function explainChoice(choice: VersionChoice): string {
  const field = versionField(choice);
  if ('error' in field) return field.error;
  switch (choice.kind) {
    case 'latest':
      return 'Any version: v1 installs the highest version the channels allow, and upgrades along the catalog as it grows.';
    case 'exact':
      return `Exactly ${choice.version}, and it stays there: v1 will not upgrade it until the version is changed.`;
    case 'minor': {
      const v = parseVersion(choice.version);
      return `${field.version}: any ${v.major}.${v.minor}.z (>=${v.major}.${v.minor}.0 <${v.major}.${v.minor + 1}.0), patch releases only; pre-releases are left out.`;
    }
    case 'major': {
      const v = parseVersion(choice.version);
      return `${field.version}: any ${v.major}.y.z (>=${v.major}.0.0 <${v.major + 1}.0.0), no new major version; pre-releases are left out.`;
    }
    case 'custom':
      return `${field.version}: any version that satisfies the range (comma or space for "and", || for "or").`;
  }
}
