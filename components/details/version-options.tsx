// A channel's versions as <option>s, newest first by SemVer (the catalog's and OLM's order is
// not the order people look for a version in), each marked: the latest, skipped (OLM never
// upgrades to it), deprecated.
import type { ChannelVersion } from '@/lib/hub/catalog-types';
import { sortNewestFirst } from '@/lib/olm/semver/version';

export function versionMarks(v: ChannelVersion): string {
  const skipped = v.skippedBy && `skipped by ${v.skippedBy.join(', ')}`;
  const marks = [v.isHead && 'latest', skipped, v.deprecation && 'deprecated'];
  return marks
    .filter(Boolean)
    .map((m) => ` (${m})`)
    .join('');
}

export function VersionOptions({ versions }: { versions: readonly ChannelVersion[] }) {
  return sortNewestFirst(
    versions,
    (v) => v.version,
    (v) => v.csvName,
  ).map((v) => (
    <option key={v.csvName} value={v.csvName}>
      {v.version ?? v.csvName}
      {versionMarks(v)}
    </option>
  ));
}
