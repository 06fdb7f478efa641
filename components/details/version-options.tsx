// A channel's versions as <option>s, newest first by SemVer (the catalog's and OLM's order is
// not the order people look for a version in), each marked: the latest, skipped (OLM never
// upgrades to it), deprecated.
import type { ChannelSummary, ChannelVersion } from '@/lib/hub/catalog-types';
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

/**
 * The channel and version pickers of a package's page (OLM v0's and v1's alike): a channel change
 * drops the version (the channel's head is shown), a version change keeps the channel.
 */
export function ChannelVersionPickers(props: {
  idPrefix: string;
  channels: readonly ChannelSummary[];
  channel: string;
  csvName: string;
  versions: readonly ChannelVersion[];
  loading: boolean;
  choose: (next: { channel?: string; version?: string }) => void;
}) {
  const { idPrefix, channel, choose } = props;
  return (
    <div className="flex flex-wrap gap-4">
      <div className="flex flex-col text-sm">
        <label htmlFor={`${idPrefix}-channel`} className="font-medium text-slate-700">
          Channel
        </label>
        <select
          id={`${idPrefix}-channel`}
          value={channel}
          onChange={(e) => choose({ channel: e.target.value, version: undefined })}
          className="rounded border border-slate-300 bg-white px-2 py-1.5"
        >
          {props.channels.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name}
              {c.isDefault ? ' (default)' : ''}
              {c.deprecation ? ' (deprecated)' : ''}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col text-sm">
        <label htmlFor={`${idPrefix}-version`} className="font-medium text-slate-700">
          Version
        </label>
        <select
          id={`${idPrefix}-version`}
          value={props.csvName}
          onChange={(e) => choose({ channel, version: e.target.value })}
          className="rounded border border-slate-300 bg-white px-2 py-1.5"
        >
          <VersionOptions versions={props.versions} />
        </select>
      </div>
      {props.loading && (
        <p role="status" className="self-end text-sm text-slate-500">
          Loading…
        </p>
      )}
    </div>
  );
}
