'use client';
// An object as read-only YAML: long lines wrap (at any character when a value has no spaces, so
// nothing is cut off on a phone), with Copy and Download above it.
import { dump } from 'js-yaml';
import { useMemo } from 'react';
import { CopyButton, DownloadButton } from './copy-button';

/** A file name made of a block's label: "CSV YAML" → csv.yaml. */
function fileNameOf(label: string): string {
  const base = label
    .toLowerCase()
    .replace(/\byaml\b/g, '')
    .replace(/[^a-z0-9.]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `${base || 'object'}.yaml`;
}

const PRE = [
  'max-h-[60vh] overflow-auto whitespace-pre-wrap [overflow-wrap:anywhere]',
  'rounded bg-slate-900 p-3 text-xs text-slate-100',
].join(' ');

export function YamlBlock({ object, label, filename }: { object: unknown; label: string; filename?: string }) {
  const text = useMemo(() => dump(object, { noRefs: true, lineWidth: 120 }), [object]);
  return (
    <div className="space-y-1">
      <div className="flex flex-wrap items-center gap-2">
        <CopyButton text={text} what={label} />
        <DownloadButton text={text} what={label} filename={filename ?? fileNameOf(label)} />
      </div>
      <pre aria-label={label} tabIndex={0} className={PRE}>
        {text}
      </pre>
    </div>
  );
}
