'use client';
// Disabling a catalog where OLM has no switch (its CatalogSource deleted, its definition kept by
// the console) and enabling it again: each planned by the server first, applied as the person.
import { useMutation, useQuery } from '@tanstack/react-query';
import { dump } from 'js-yaml';
import type { CatalogSourcePlan, CatalogSourceRow } from '@/lib/api/catalog-sources';
import { apiWrite } from '@/lib/client/api';
import type { DisabledCatalog } from '@/lib/olm/catalog/disabled-catalogs';
import { ErrorNotice } from '../common/notice';
import { ConfirmCatalogChange } from './catalog-source-confirm';

const where = (namespace: string, name: string) => `${encodeURIComponent(namespace)}/${encodeURIComponent(name)}`;

export function DisableCatalogSource({
  row,
  onDone,
  onCancel,
}: {
  row: CatalogSourceRow;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const seen = String(row.generation ?? '');
  return (
    <ConfirmCatalogChange
      row={row}
      onDone={onDone}
      onCancel={onCancel}
      change={{
        action: 'disable',
        verb: 'Disable',
        doing: 'Disabling',
        done: 'disabled',
        tone: 'amber',
        warningTitle: 'What happens',
        apply: () => apiWrite(`/api/catalogsources/${where(row.namespace, row.name)}/disable`, 'POST', { seen }),
        message: `Disabled catalog source ${row.namespace}/${row.name}: Enable it again below.`,
      }}
    />
  );
}

function EnableCatalog({ catalog, onDone }: { catalog: DisabledCatalog; onDone: (message: string) => void }) {
  const plan = useQuery({
    queryKey: ['catalogsource-enable-plan', catalog.namespace, catalog.name, catalog.disabledAt],
    queryFn: () =>
      apiWrite<CatalogSourcePlan>('/api/catalogsources/plan', 'POST', {
        action: 'enable',
        namespace: catalog.namespace,
        name: catalog.name,
      }),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const enable = useMutation({
    mutationFn: () =>
      apiWrite<{ warning?: string }>(
        `/api/catalogsources/${where(catalog.namespace, catalog.name)}/enable`,
        'POST',
        {},
      ),
    onSuccess: (r) =>
      onDone(`Enabled catalog source ${catalog.namespace}/${catalog.name}.${r.warning ? ` ${r.warning}` : ''}`),
  });
  const p = plan.data;
  return (
    <div className="space-y-2">
      {plan.error && <ErrorNotice error={plan.error} what="Enabling could not be planned" />}
      {p && (
        <>
          <ul className="list-disc pl-5 text-sm">
            {p.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
          <details className="text-sm">
            <summary className="cursor-pointer text-sky-700">The CatalogSource it makes</summary>
            <pre className="mt-1 overflow-x-auto rounded bg-slate-900 p-3 text-xs text-slate-100">
              {dump(p.object, { lineWidth: 120, noRefs: true })}
            </pre>
          </details>
        </>
      )}
      {enable.error && <ErrorNotice error={enable.error} what="The catalog source was not enabled" />}
      <button
        type="button"
        disabled={!p || !p.allowed.allowed || enable.isPending}
        title={p && !p.allowed.allowed ? `You may not enable it: ${p.allowed.reason}` : undefined}
        onClick={() => enable.mutate()}
        className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
      >
        {enable.isPending ? 'Enabling…' : `Enable ${catalog.name}`}
      </button>
      {p && !p.allowed.allowed && <p className="text-xs text-slate-600">You may not enable it: {p.allowed.reason}</p>}
    </div>
  );
}

/** The catalogs disabled through the console, each with Enable. */
export function DisabledCatalogs({
  catalogs,
  problems,
  onDone,
}: {
  catalogs: DisabledCatalog[];
  problems: string[];
  onDone: (message: string) => void;
}) {
  if (!catalogs.length && !problems.length) return null;
  return (
    <section
      aria-labelledby="disabled-catalogs-title"
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="disabled-catalogs-title" className="text-lg font-semibold">
        Disabled catalogs
      </h2>
      <ul aria-label="Disabled catalogs" className="space-y-4">
        {catalogs.map((c) => (
          <li
            key={`${c.namespace}/${c.name}`}
            aria-label={`Disabled catalog ${c.namespace}/${c.name}`}
            className="space-y-1"
          >
            <p className="text-sm">
              <strong>{c.catalogSource.spec.displayName || c.name}</strong>{' '}
              <span className="text-slate-600">
                {c.namespace}/{c.name}
              </span>{' '}
              — disabled {new Date(c.disabledAt).toLocaleString()}
              {c.disabledBy ? ` by ${c.disabledBy}` : ''}
            </p>
            <EnableCatalog catalog={c} onDone={onDone} />
          </li>
        ))}
      </ul>
      {problems.map((p) => (
        <p key={p} className="text-sm text-amber-800">
          {p}
        </p>
      ))}
    </section>
  );
}
