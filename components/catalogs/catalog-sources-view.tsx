'use client';
// Every CatalogSource the person may see: who publishes it, where its content comes from, its
// priority, its health in words (what TRANSIENT_FAILURE means, and which Subscriptions it holds
// back), and its packages; live. Adding a catalog by image, editing an image-backed one and
// deleting one go through the server's plan first, as the person, each control disabled with the
// cluster's reason when the person may not; so does disabling one of a global namespace, where OLM
// has no switch (deleted, its definition kept to enable it again). Above them, the default sources' switches (OpenShift's
// OperatorHub config), or what upstream OLM offers instead.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useState } from 'react';
import type { CatalogSourcesResponse } from '@/lib/api/catalog-sources';
import { apiGet } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { Badge } from '../common/badges';
import { ErrorPanel } from '../common/error-panel';
import { RelativeTime } from '../common/relative-time';
import { DeleteCatalogSource } from './catalog-source-delete';
import { DisabledCatalogs, DisableCatalogSource } from './catalog-source-disable';
import { CatalogSourceEditor } from './catalog-source-editor';
import { DefaultSources } from './default-sources';
import { FACTS_GRID } from '../common/facts-grid';

export function CatalogSourcesView() {
  const key = ['catalogsources'];
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiGet<CatalogSourcesResponse>('/api/catalogsources', signal),
  });
  useLiveRefresh(key, undefined, ['catalogsources']);
  // One change at a time: adding, or editing / deleting the row named `namespace/name`.
  const [open, setOpen] = useState<{ kind: 'add' } | { kind: 'edit' | 'delete' | 'disable'; id: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  if (list.error) {
    const back = [{ href: '/operatorhub', label: 'Browse OperatorHub' }];
    return (
      <ErrorPanel
        error={list.error}
        title="Catalog sources could not be read"
        onRetry={() => void list.refetch()}
        back={back}
      />
    );
  }
  if (!list.data) return <p role="status">Loading catalog sources…</p>;
  const { catalogSources: rows, canCreate, globalNamespaces } = list.data;
  const finish = (message: string) => {
    setOpen(null);
    setDone(message);
    void qc.invalidateQueries({ queryKey: key });
  };
  return (
    <section aria-labelledby="catalogs-title" className="space-y-4">
      <div className="flex flex-wrap items-start gap-3">
        <h1 id="catalogs-title" className="mr-auto text-2xl font-bold">
          Catalog sources
        </h1>
        <div className="flex flex-col items-end gap-1">
          <button
            type="button"
            disabled={!canCreate.allowed || open !== null}
            aria-describedby={canCreate.allowed ? undefined : 'add-denied'}
            onClick={() => {
              setDone(null);
              setOpen({ kind: 'add' });
            }}
            className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
          >
            Add catalog source
          </button>
          {!canCreate.allowed && (
            <p id="add-denied" className="max-w-md text-right text-xs text-slate-600">
              You may not add catalogs: {canCreate.reason}
            </p>
          )}
        </div>
      </div>
      <p className="text-sm text-slate-600">
        When two catalogs offer the same package, OLM prefers the one with the higher priority. {rows.length} catalog
        {rows.length === 1 ? '' : 's'}.
      </p>
      {done && (
        <p role="status" className="rounded border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {done}
        </p>
      )}
      <DefaultSources
        globalNamespaces={globalNamespaces}
        onChanged={() => void qc.invalidateQueries({ queryKey: key })}
      />
      <DisabledCatalogs catalogs={list.data.disabled} problems={list.data.disabledProblems} onDone={finish} />
      {open?.kind === 'add' && (
        <CatalogSourceEditor globalNamespaces={globalNamespaces} onDone={finish} onCancel={() => setOpen(null)} />
      )}
      <ul aria-label="Catalog sources" className="space-y-4">
        {rows.map((c) => {
          const id = `${c.namespace}/${c.name}`;
          return (
            <li
              key={id}
              aria-label={`Catalog source ${id}`}
              className="space-y-2 rounded-lg border border-slate-200 bg-white p-4"
            >
              <div className="flex flex-wrap items-baseline gap-3">
                <h2 className="text-lg font-semibold [overflow-wrap:anywhere]">{c.displayName}</h2>
                <span className="text-sm text-slate-600 [overflow-wrap:anywhere]">{id}</span>
                <Badge tone={c.health.healthy ? 'ok' : 'error'}>{c.health.state}</Badge>
                <span className="ml-auto flex gap-2">
                  <button
                    type="button"
                    disabled={!c.canEdit.allowed || open !== null}
                    title={c.canEdit.allowed ? undefined : `Not editable here: ${c.canEdit.reason}`}
                    onClick={() => {
                      setDone(null);
                      setOpen({ kind: 'edit', id });
                    }}
                    className="rounded border border-slate-300 px-2.5 py-1 text-sm disabled:cursor-not-allowed disabled:text-slate-400"
                  >
                    Edit
                  </button>
                  {globalNamespaces.includes(c.namespace) && (
                    <button
                      type="button"
                      disabled={!c.canDisable.allowed || open !== null}
                      title={
                        c.canDisable.allowed
                          ? 'Delete it, keeping its definition to enable it again'
                          : `Not offered: ${c.canDisable.reason}`
                      }
                      onClick={() => {
                        setDone(null);
                        setOpen({ kind: 'disable', id });
                      }}
                      className="rounded border border-amber-300 px-2.5 py-1 text-sm text-amber-900 disabled:cursor-not-allowed disabled:border-slate-200 disabled:text-slate-400"
                    >
                      Disable
                    </button>
                  )}
                  <button
                    type="button"
                    disabled={!c.canDelete.allowed || open !== null}
                    title={c.canDelete.allowed ? undefined : `You may not delete it: ${c.canDelete.reason}`}
                    onClick={() => {
                      setDone(null);
                      setOpen({ kind: 'delete', id });
                    }}
                    className="rounded border border-red-300 px-2.5 py-1 text-sm text-red-800 disabled:cursor-not-allowed disabled:border-slate-200 disabled:text-slate-400"
                  >
                    Delete
                  </button>
                </span>
              </div>
              {(!c.canEdit.allowed || !c.canDelete.allowed) && (
                <p className="text-xs text-slate-600">
                  {!c.canEdit.allowed && <span className="block">Edit is not offered: {c.canEdit.reason}</span>}
                  {!c.canDelete.allowed && <span className="block">Delete is not offered: {c.canDelete.reason}</span>}
                </p>
              )}
              {open?.kind === 'edit' && open.id === id && (
                <CatalogSourceEditor
                  row={c}
                  globalNamespaces={globalNamespaces}
                  onDone={finish}
                  onCancel={() => setOpen(null)}
                />
              )}
              {open?.kind === 'delete' && open.id === id && (
                <DeleteCatalogSource row={c} onDone={finish} onCancel={() => setOpen(null)} />
              )}
              {open?.kind === 'disable' && open.id === id && (
                <DisableCatalogSource row={c} onDone={finish} onCancel={() => setOpen(null)} />
              )}
              <dl className={`${FACTS_GRID.medium} text-sm`}>
                <dt className="text-slate-600">Publisher</dt>
                <dd>{c.publisher || '—'}</dd>
                <dt className="text-slate-600">Type</dt>
                <dd>
                  {c.sourceType}
                  {c.origin ? ` · ${c.origin}` : ''}
                  {c.pollInterval ? ` · polled every ${c.pollInterval}` : ''}
                </dd>
                <dt className="text-slate-600">Priority</dt>
                <dd>{c.priority}</dd>
                <dt className="text-slate-600">Last connect</dt>
                <dd>
                  <RelativeTime iso={c.health.lastConnect} />
                </dd>
                {c.lastPoll && (
                  <>
                    <dt className="text-slate-600">Last image poll</dt>
                    <dd>
                      <RelativeTime iso={c.lastPoll} />
                    </dd>
                  </>
                )}
                <dt className="text-slate-600">Packages</dt>
                <dd>
                  {c.packages.length}
                  {c.readVia === 'packagemanifests' ? ' (read through PackageManifests: no upgrade edges)' : ''}
                  {c.nonStandalone.length > 0 &&
                    `; ${c.packages.length - c.nonStandalone.length} in OperatorHub, which leaves out ${c.nonStandalone.length === 1 ? 'the one' : `the ${c.nonStandalone.length}`} marked non-standalone (installed only as part of another operator)`}
                </dd>
              </dl>
              <p className={`text-sm ${c.health.healthy ? 'text-slate-700' : 'text-red-900'}`}>
                {c.health.explanation}
              </p>
              {c.problem && (
                <p className="text-sm text-amber-800">The console could not read its packages: {c.problem}.</p>
              )}
              {c.blockedSubscriptions.length > 0 && (
                <div role="note" className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm">
                  <p className="font-semibold">Blocked subscriptions (CatalogSourcesUnhealthy)</p>
                  <ul className="list-disc pl-5">
                    {c.blockedSubscriptions.map((s) => (
                      <li key={`${s.namespace}/${s.name}`}>
                        <Link
                          className="underline"
                          href={`/installs/${encodeURIComponent(s.namespace)}/${encodeURIComponent(s.name)}`}
                        >
                          {s.namespace}/{s.name}
                        </Link>
                        {s.message ? `: ${s.message}` : ''}
                      </li>
                    ))}
                  </ul>
                </div>
              )}
              {c.packages.length > 0 && (
                <details className="text-sm">
                  <summary className="cursor-pointer text-sky-700">
                    Show its {c.packages.length === 1 ? 'package' : `${c.packages.length} packages`}
                  </summary>
                  <ul className="mt-1 columns-2 gap-6 sm:columns-3">
                    {c.packages.map((p) => (
                      <li key={p}>
                        <Link
                          className="text-sky-700 underline"
                          href={`/operatorhub/${encodeURIComponent(c.namespace)}/${encodeURIComponent(c.name)}/${encodeURIComponent(p)}`}
                        >
                          {p}
                        </Link>
                        {c.nonStandalone.includes(p) && ' (non-standalone)'}
                      </li>
                    ))}
                  </ul>
                </details>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
