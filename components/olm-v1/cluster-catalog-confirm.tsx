'use client';
// The confirmation before a ClusterCatalog is deleted or disabled: what catalogd then does, and
// the ClusterExtensions whose resolution uses the catalog (read by the server as the person), so
// nobody strands an extension's upgrades without seeing it. The write is made at the generation
// the person saw.
import { useMutation, useQuery } from '@tanstack/react-query';
import type { CatalogDependentsResponse, ClusterCatalogRow } from '@/lib/api/olm-v1-catalogs';
import { apiGet, apiWrite } from '@/lib/client/api';
import { ErrorNotice, Warning } from '../common/notice';

const EFFECT = {
  delete:
    'catalogd stops serving its content and the ClusterCatalog is gone; operator-controller no longer resolves anything from it, so the ClusterExtensions below get no bundle from it again.',
  disable:
    'catalogd stops serving its content (availabilityMode Unavailable) and operator-controller ignores it when resolving; enabling it again pulls and serves it anew.',
};

export function ConfirmCatalogChange({
  row,
  action,
  onDone,
  onCancel,
}: {
  row: ClusterCatalogRow;
  action: 'delete' | 'disable';
  onDone: (m: string) => void;
  onCancel: () => void;
}) {
  const path = `/api/olm-v1/clustercatalogs/${encodeURIComponent(row.name)}`;
  const dependents = useQuery({
    queryKey: ['clustercatalog-dependents', row.name, row.generation],
    queryFn: ({ signal }) => apiGet<CatalogDependentsResponse>(`${path}/dependents`, signal),
    retry: false,
  });
  const apply = useMutation({
    mutationFn: () =>
      action === 'delete'
        ? apiWrite(`${path}?seen=${row.generation}`, 'DELETE')
        : apiWrite(path, 'PATCH', { seen: row.generation, availabilityMode: 'Unavailable' }),
    onSuccess: () =>
      onDone(action === 'delete' ? `Deleted ClusterCatalog ${row.name}.` : `Disabled ClusterCatalog ${row.name}.`),
  });
  const verb = action === 'delete' ? 'Delete' : 'Disable';
  const d = dependents.data;
  return (
    <section
      aria-label={`${verb} ClusterCatalog ${row.name}`}
      className="space-y-3 rounded border border-red-200 bg-red-50/40 p-3"
    >
      <h3 className="font-semibold">
        {verb} ClusterCatalog {row.name}?
      </h3>
      <p className="text-sm">{EFFECT[action]}</p>
      {dependents.error && <ErrorNotice error={dependents.error} what="What depends on it could not be read" />}
      {!d && !dependents.error && <p role="status">Finding the ClusterExtensions that use it…</p>}
      {d && d.dependents.length === 0 && <p className="text-sm">No ClusterExtension you may read resolves from it.</p>}
      {d && d.dependents.length > 0 && (
        <Warning
          title={`${d.dependents.length === 1 ? 'One ClusterExtension uses' : `${d.dependents.length} ClusterExtensions use`} it`}
        >
          <ul className="list-disc pl-5">
            {d.dependents.map((x) => (
              <li key={x.name}>
                <span className="font-medium">{x.name}</span> (package {x.packageName}): {x.why}
              </li>
            ))}
          </ul>
        </Warning>
      )}
      {d?.problems.map((p) => (
        <p key={p} className="text-sm text-amber-800">
          {p}
        </p>
      ))}
      {apply.error && <ErrorNotice error={apply.error} what={`${row.name} was not changed`} />}
      <div className="flex gap-2">
        <button
          type="button"
          disabled={!d || apply.isPending}
          onClick={() => apply.mutate()}
          className="rounded bg-red-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
        >
          {verb} {row.name}
        </button>
        <button type="button" className="rounded border border-slate-300 px-3 py-1.5 text-sm" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
