'use client';
// The namespace selector of the day-two pages, "All namespaces" first; a person who may not list
// namespaces types the one they work in.
import { useQuery } from '@tanstack/react-query';
import { apiGet } from '@/lib/client/api';

interface NamespaceList {
  canListAll: boolean;
  namespaces: { name: string }[];
}

export const ALL = '';

export function NamespaceSelect({ value, onChange }: { value: string; onChange: (ns: string) => void }) {
  const list = useQuery({
    queryKey: ['namespaces', value],
    queryFn: ({ signal }) =>
      apiGet<NamespaceList>(`/api/namespaces${value ? `?namespace=${encodeURIComponent(value)}` : ''}`, signal),
    staleTime: 30_000,
  });
  if (list.data && !list.data.canListAll) {
    return (
      <label className="flex flex-col text-sm">
        <span className="font-medium text-slate-700">Namespace</span>
        <input
          defaultValue={value}
          onBlur={(e) => onChange(e.target.value.trim())}
          onKeyDown={(e) => e.key === 'Enter' && onChange((e.target as HTMLInputElement).value.trim())}
          placeholder="your namespace"
          className="w-56 rounded border border-slate-300 px-2 py-1.5"
        />
      </label>
    );
  }
  return (
    <div className="flex flex-col text-sm">
      <label htmlFor="namespace-select" className="font-medium text-slate-700">
        Namespace
      </label>
      <select
        id="namespace-select"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        className="w-56 rounded border border-slate-300 bg-white px-2 py-1.5"
      >
        <option value={ALL}>All namespaces</option>
        {(list.data?.namespaces ?? (value ? [{ name: value }] : [])).map((n) => (
          <option key={n.name} value={n.name}>
            {n.name}
          </option>
        ))}
      </select>
    </div>
  );
}
