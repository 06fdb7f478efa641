'use client';
// The one way a namespace is chosen: the namespaces the person can use (useMyNamespaces), "All
// namespaces" where a page offers it and the person may read every one, and, where the cluster
// does not let the person list namespaces, a name typed and checked before it is used and offered
// again. Never an empty list with no way on: with nothing to offer, it asks for a name.
import { useId, useState } from 'react';
import { useMyNamespaces } from './namespace-memory';

const OTHER = '\u0000other';

export function NamespaceChooser({
  value,
  onChange,
  allowAll = false,
  label = 'Namespace',
  placeholder,
  submitLabel = 'Use',
}: {
  value: string;
  onChange: (ns: string) => void;
  /** Offer "All namespaces" (the empty value) to a person who may read operators in every one. */
  allowAll?: boolean;
  label?: string;
  /** Where no namespace is chosen yet and All is not offered: the select's first, unchoosable line. */
  placeholder?: string;
  /** The typed name's button, named for what choosing does. */
  submitLabel?: string;
}) {
  const my = useMyNamespaces();
  const id = useId();
  const [typing, setTyping] = useState(false);
  const d = my.data;
  const all = allowAll && (d?.clusterWide ?? value === '');
  const offered = d?.namespaces ?? [];
  const options = value && !offered.includes(value) ? [value, ...offered] : offered;
  // Typing is offered only where the list cannot be complete: the person may list neither
  // projects nor namespaces, so the names come from what they typed before.
  const canType = d?.source === 'access-reviews';
  const nothing = d && !all && options.length === 0;

  if (my.error) {
    return (
      <div className="flex flex-col text-sm">
        <span className="font-medium text-slate-700">{label}</span>
        <p role="alert" className="w-56 text-red-800">
          Your namespaces could not be read: {my.error.message}
        </p>
      </div>
    );
  }
  if (nothing || typing) {
    return (
      <TypedNamespace
        label={label}
        check={my.check}
        submitLabel={submitLabel}
        onChosen={(ns) => {
          setTyping(false);
          onChange(ns);
        }}
        onCancel={nothing ? undefined : () => setTyping(false)}
        first={!!nothing}
      />
    );
  }
  return (
    <div className="flex flex-col text-sm">
      <label htmlFor={id} className="font-medium text-slate-700">
        {label}
      </label>
      <select
        id={id}
        value={value}
        disabled={!d}
        onChange={(e) => (e.target.value === OTHER ? setTyping(true) : onChange(e.target.value))}
        className="w-56 rounded border border-slate-300 bg-white px-2 py-1.5"
      >
        {!d && <option value={value}>{value || 'Loading…'}</option>}
        {d && all && <option value="">All namespaces</option>}
        {d && !all && placeholder && value === '' && (
          <option value="" disabled>
            {placeholder}
          </option>
        )}
        {d &&
          options.map((n) => (
            <option key={n} value={n}>
              {n}
            </option>
          ))}
        {d && canType && <option value={OTHER}>Another namespace…</option>}
      </select>
    </div>
  );
}

function TypedNamespace({
  label,
  check,
  submitLabel,
  onChosen,
  onCancel,
  first,
}: {
  label: string;
  check: ReturnType<typeof useMyNamespaces>['check'];
  submitLabel: string;
  onChosen: (ns: string) => void;
  onCancel?: () => void;
  first: boolean;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const n = name.trim();
    if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(n) || n.length > 63) {
      setProblem('A namespace name is lowercase letters, digits and "-", at most 63 characters.');
      return;
    }
    setBusy(true);
    try {
      const r = await check(n);
      if (r.ok) onChosen(n);
      else setProblem(`Not ${n}: ${r.reason}.`);
    } catch (err) {
      setProblem(`${n} could not be checked: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="flex max-w-md flex-col text-sm"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label htmlFor={id} className="font-medium text-slate-700">
        {label}
      </label>
      {first && (
        <p id={`${id}-help`} className="mb-1 text-slate-600">
          The cluster does not let you list namespaces. Type the one you work in: it is checked with your rights, then
          offered here next time.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <input
          id={id}
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-describedby={[first ? `${id}-help` : '', problem ? `${id}-problem` : ''].join(' ').trim() || undefined}
          aria-invalid={!!problem}
          placeholder="your namespace"
          autoComplete="off"
          className="w-56 rounded border border-slate-300 px-2 py-1.5"
        />
        <button
          type="submit"
          disabled={busy || !name.trim()}
          className="rounded bg-sky-700 px-3 py-1.5 font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
        >
          {busy ? 'Checking…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel} className="px-2 py-1.5 text-sky-700 underline">
            Cancel
          </button>
        )}
      </div>
      {problem && (
        <p id={`${id}-problem`} role="alert" className="mt-1 text-red-800">
          {problem}
        </p>
      )}
    </form>
  );
}
