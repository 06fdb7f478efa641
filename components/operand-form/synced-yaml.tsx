'use client';
// A YAML text area bound to a value both ways: what the person types is parsed and written back
// when it is valid YAML of the right shape (else the problem is shown and the value kept), and a
// change made elsewhere (a form field) rewrites the text. Used for the whole object (the YAML
// view) and for the parts of a spec the form cannot show as fields.
import { dump, load } from 'js-yaml';
import { useState } from 'react';

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function text(value: unknown): string {
  return value === undefined ? '' : dump(value, { noRefs: true, lineWidth: -1 });
}

export function SyncedYaml({
  value,
  onChange,
  label,
  rows,
  check,
}: {
  value: unknown;
  onChange: (v: unknown) => void;
  label: string;
  rows: number;
  /** What is wrong with a parsed value's shape, if anything. */
  check?: (v: unknown) => string | undefined;
}) {
  const [draft, setDraft] = useState(() => text(value));
  const [error, setError] = useState<string>();
  // The value this text last stood for: when the value moves on without us, the text follows
  // (React's "adjusting state when a prop changes", during render).
  const [seen, setSeen] = useState<unknown>(value);
  if (!same(seen, value)) {
    setSeen(value);
    setDraft(text(value));
    setError(undefined);
  }
  const edit = (next: string) => {
    setDraft(next);
    let parsed: unknown;
    try {
      parsed = next.trim() ? load(next) : undefined;
    } catch (err) {
      setError(err instanceof Error ? err.message.split('\n')[0] : String(err));
      return;
    }
    const bad = check?.(parsed);
    setError(bad);
    if (bad) return;
    setSeen(parsed);
    onChange(parsed);
  };
  return (
    <div className="space-y-1">
      <textarea
        aria-label={label}
        spellCheck={false}
        rows={rows}
        value={draft}
        onChange={(e) => edit(e.target.value)}
        className="w-full rounded border border-slate-300 bg-slate-50 p-2 font-mono text-xs"
      />
      {error && (
        <p role="alert" className="text-xs text-red-700">
          Not applied: {error}
        </p>
      )}
    </div>
  );
}
