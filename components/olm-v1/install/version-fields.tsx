'use client';
// The version a ClusterExtension asks for, chosen from the catalog's versions (lib/olm/v1/version-choice.ts
// turns the choice into v1's version field), with what v1 resolves it to right now beside it.
import { explainChoice, type VersionChoice, type VersionChoiceKind } from '@/lib/olm/v1/version-choice';
import type { V1InstallPlan } from '@/lib/api/olm-v1-install';

const KINDS: { kind: VersionChoiceKind; label: string }[] = [
  { kind: 'latest', label: 'Latest' },
  { kind: 'exact', label: 'Exactly this version' },
  { kind: 'minor', label: 'This minor' },
  { kind: 'major', label: 'This major' },
  { kind: 'custom', label: 'Custom range' },
];

export interface VersionState {
  kind: VersionChoiceKind;
  /** The catalog version the exact, minor and major choices start from. */
  base: string;
  range: string;
}

export function choiceOf(s: VersionState): VersionChoice {
  if (s.kind === 'latest') return { kind: 'latest' };
  if (s.kind === 'custom') return { kind: 'custom', range: s.range };
  return { kind: s.kind, version: s.base };
}

export function VersionFields({
  value,
  onChange,
  versions,
  resolution,
  stale,
  failed,
}: {
  value: VersionState;
  onChange: (v: VersionState) => void;
  versions: string[];
  resolution?: V1InstallPlan['resolution'];
  /** The resolution shown is of an earlier choice while the new one is planned. */
  stale: boolean;
  /** The plan failed: nothing is being resolved. */
  failed: boolean;
}) {
  const explained = explainChoice(choiceOf(value));
  return (
    <fieldset className="space-y-2 text-sm">
      <legend className="font-medium">Version</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {KINDS.map((k) => (
          <label key={k.kind} className="flex min-h-7 items-center gap-2">
            <input
              type="radio"
              name="version-kind"
              className="h-5 w-5"
              checked={value.kind === k.kind}
              onChange={() => onChange({ ...value, kind: k.kind })}
            />
            {k.label}
          </label>
        ))}
      </div>
      {(value.kind === 'exact' || value.kind === 'minor' || value.kind === 'major') && (
        <label className="flex flex-col">
          <span>From the catalog&apos;s versions</span>
          <select
            value={value.base}
            onChange={(e) => onChange({ ...value, base: e.target.value })}
            className="rounded border border-slate-300 bg-white px-2 py-1.5"
          >
            {versions.map((v) => (
              <option key={v} value={v}>
                {v}
              </option>
            ))}
          </select>
        </label>
      )}
      {value.kind === 'custom' && (
        <label className="flex flex-col">
          <span>Range</span>
          <input
            value={value.range}
            onChange={(e) => onChange({ ...value, range: e.target.value })}
            placeholder=">=1.2.0 <2.0.0"
            className="rounded border border-slate-300 bg-white px-2 py-1.5 font-mono"
            aria-describedby="version-explained"
          />
        </label>
      )}
      <p id="version-explained" className="text-xs text-slate-700">
        {explained}
      </p>
      <p role="status" aria-label="Resolved version" className="rounded bg-slate-100 px-2 py-1 text-sm">
        {!resolution
          ? failed
            ? 'Not known: the install could not be planned.'
            : 'Resolving…'
          : 'error' in resolution
            ? `v1 finds nothing to install: ${resolution.error}`
            : `v1 installs ${resolution.version} (${resolution.bundle}, from ${resolution.catalog}) right now.`}
        {stale && resolution ? ' Updating…' : ''}
      </p>
    </fieldset>
  );
}
