'use client';
// Where the operand goes, for a namespaced API: one of the namespaces its operator watches (a
// select of them), or for an operator that watches all, any namespace the person can list (a
// free name when they may not list namespaces). An operator that watches one namespace leaves
// nothing to choose, nor does a form read from OLM's copy (for a person who may not read the
// operator's own CSV). The choice is the object's metadata.namespace, so the YAML view shows it
// and an edit there moves it too.
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/client/api';
import type { WatchedNamespaces } from '@/lib/olm/operand-form/namespaces';

const INPUT = 'w-full max-w-md rounded border border-slate-300 px-2 py-1 text-sm';
const ID = 'f-metadata_namespace';

interface Props {
  watched: WatchedNamespaces;
  /** The form comes from OLM's copy: the namespace the operator runs in, whose CSV the person may not read. */
  copyOf?: string;
  value: string;
  onChange: (v: string) => void;
}

export function NamespaceChoice({ watched, copyOf, value, onChange }: Props) {
  if (copyOf && !watched.all && watched.namespaces[0] === value) {
    return (
      <p className="text-sm">
        <span className="font-medium">Namespace</span>: {value}{' '}
        <span className="text-slate-600">
          (the operator runs in {copyOf}, where you may not read it; OLM copied it here because it watches this
          namespace)
        </span>
      </p>
    );
  }
  if (!watched.all && watched.namespaces.length === 1 && watched.namespaces[0] === value) {
    return (
      <p className="text-sm">
        <span className="font-medium">Namespace</span>: {value}{' '}
        <span className="text-slate-600">(the only one its operator watches)</span>
      </p>
    );
  }
  return (
    <div className="space-y-1">
      <div className="text-sm font-medium">
        <label htmlFor={ID}>Namespace</label>
      </div>
      {watched.all ? (
        <AnyNamespace value={value} onChange={onChange} />
      ) : (
        <Options names={watched.namespaces} value={value} onChange={onChange} />
      )}
      <p id={`${ID}-help`} className="text-xs text-slate-600">
        {watched.all
          ? 'The operator watches every namespace.'
          : `The operator watches ${watched.namespaces.join(', ')}.`}
      </p>
    </div>
  );
}

function Options({
  names,
  value,
  onChange,
}: {
  names: readonly string[];
  value: string;
  onChange: (v: string) => void;
}) {
  // A namespace typed in the YAML view stays visible, so the select never hides what is sent.
  const all = names.includes(value) ? names : [...names, value];
  return (
    <select
      id={ID}
      aria-describedby={`${ID}-help`}
      className={INPUT}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      {all.map((n) => (
        <option key={n} value={n}>
          {n}
        </option>
      ))}
    </select>
  );
}

function AnyNamespace({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const list = useQuery({
    queryKey: ['namespaces', ''],
    queryFn: ({ signal }) => apiGet<{ canListAll: boolean; namespaces: { name: string }[] }>('/api/namespaces', signal),
    staleTime: 30_000,
  });
  // Until the list is read the choice stays as it is; a person who may not list namespaces types one.
  if (!list.data) return <Options names={[value]} value={value} onChange={onChange} />;
  if (!list.data.canListAll)
    return (
      <input
        id={ID}
        type="text"
        aria-describedby={`${ID}-help`}
        className={INPUT}
        value={value}
        autoComplete="off"
        onChange={(e) => onChange(e.target.value.trim())}
      />
    );
  return <Options names={list.data.namespaces.map((n) => n.name)} value={value} onChange={onChange} />;
}
