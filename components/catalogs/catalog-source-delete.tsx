'use client';
// Deleting a catalog: the server's plan first (the Subscriptions that install from it and what
// OLM then does to them), then the delete as the person, on condition that the CatalogSource is
// still the one read (the generation the person saw, and the resourceVersion read as precondition).
import { useMutation, useQuery } from '@tanstack/react-query';
import type { CatalogSourceApplied, CatalogSourcePlan, CatalogSourceRow } from '@/lib/api/catalog-sources';
import { apiWrite } from '@/lib/client/api';
import { ErrorNotice, Warning } from '../common/notice';
import { PlanSubscriptions } from './plan-subscriptions';

export function DeleteCatalogSource({
  row,
  onDone,
  onCancel,
}: {
  row: CatalogSourceRow;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const where = `${encodeURIComponent(row.namespace)}/${encodeURIComponent(row.name)}`;
  const plan = useQuery({
    queryKey: ['catalogsource-delete-plan', row.namespace, row.name, row.generation],
    queryFn: () =>
      apiWrite<CatalogSourcePlan>('/api/catalogsources/plan', 'POST', {
        action: 'delete',
        namespace: row.namespace,
        name: row.name,
        seen: String(row.generation ?? ''),
      }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const del = useMutation({
    mutationFn: () =>
      apiWrite<CatalogSourceApplied>(
        `/api/catalogsources/${where}?seen=${encodeURIComponent(String(row.generation ?? ''))}`,
        'DELETE',
      ),
    onSuccess: () => onDone(`Deleted catalog source ${row.namespace}/${row.name}.`),
  });
  const p = plan.data;
  return (
    <section
      aria-label={`Delete catalog source ${row.namespace}/${row.name}`}
      className="space-y-3 rounded border border-red-200 bg-red-50/40 p-3"
    >
      <h3 className="font-semibold">
        Delete catalog source {row.namespace}/{row.name}?
      </h3>
      {plan.error && <ErrorNotice error={plan.error} what="The deletion could not be planned" />}
      {!p && !plan.error && <p role="status">Finding the Subscriptions that use it…</p>}
      {p && (
        <>
          <Warning title="What OLM does then">
            <ul className="list-disc space-y-1 pl-5">
              {p.warnings.map((w) => (
                <li key={w}>{w}</li>
              ))}
            </ul>
          </Warning>
          <PlanSubscriptions plan={p} />
        </>
      )}
      {del.error && <ErrorNotice error={del.error} what="The catalog source was not deleted" />}
      <div className="flex gap-2">
        <button
          type="button"
          disabled={!p || del.isPending}
          onClick={() => del.mutate()}
          className="rounded bg-red-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
        >
          {del.isPending ? 'Deleting…' : 'Delete catalog source'}
        </button>
        <button type="button" onClick={onCancel} className="rounded border border-slate-300 px-3 py-1.5 text-sm">
          Keep it
        </button>
      </div>
    </section>
  );
}
