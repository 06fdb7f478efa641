'use client';
// OLM v1's ClusterCatalogs as an administrator reads them: catalogd's Serving and Progressing
// conditions in its words, the image and the digest it resolved to, priority, poll interval, when
// it was last unpacked and how many packages it serves; live. Adding one from an image, enabling or
// disabling, editing priority and poll interval and deleting are made as the person, each control
// disabled with the cluster's reason (SelfSubjectAccessReview) when the person may not. A table on
// a desktop, one block per catalog on a phone.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ClusterCatalogRow, ClusterCatalogsResponse } from '@/lib/api/olm-v1-catalogs';
import { apiGet, apiWrite } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { Badge } from '../common/badges';
import { ErrorPanel } from '../common/error-panel';
import { LiveNotice } from '../common/live-notice';
import { ErrorNotice } from '../common/notice';
import { RelativeTime } from '../common/relative-time';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';
import { ConfirmCatalogChange } from './cluster-catalog-confirm';
import { AddClusterCatalog, EditClusterCatalog } from './cluster-catalog-forms';
import { CatalogStatus } from './cluster-catalog-status';

type Open = { kind: 'add' } | { kind: 'edit' | 'delete' | 'disable'; name: string } | null;
const KEY = ['olm-v1', 'clustercatalogs'];
const BUTTON =
  'rounded border px-2.5 py-1 text-sm disabled:cursor-not-allowed disabled:border-slate-200 disabled:text-slate-500';

export function ClusterCatalogsView() {
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => apiGet<ClusterCatalogsResponse>('/api/olm-v1/clustercatalogs', signal),
  });
  const served = list.data?.served === true;
  const live = useLiveRefresh(KEY, undefined, ['clustercatalogs'], served);
  const [open, setOpen] = useState<Open>(null);
  const [done, setDone] = useState<string | null>(null);
  const enable = useMutation({
    mutationFn: (row: ClusterCatalogRow) =>
      apiWrite(`/api/olm-v1/clustercatalogs/${encodeURIComponent(row.name)}`, 'PATCH', {
        seen: row.generation,
        availabilityMode: 'Available',
      }),
    onSuccess: (_, row) => finish(`Enabled ClusterCatalog ${row.name}; catalogd pulls and serves it again.`),
  });
  const finish = (message: string) => {
    setOpen(null);
    setDone(message);
    void qc.invalidateQueries({ queryKey: KEY });
  };
  const start = (o: Open) => {
    setDone(null);
    enable.reset();
    setOpen(o);
  };
  if (list.error)
    return (
      <ErrorPanel
        error={list.error}
        title="ClusterCatalogs could not be read"
        onRetry={() => void list.refetch()}
        back={[{ href: '/catalogsources', label: 'Catalog sources (OLM v0)' }]}
      />
    );
  if (!list.data) return <p role="status">Loading ClusterCatalogs…</p>;
  if (!list.data.served)
    return (
      <section aria-labelledby="cc-title" className="space-y-3">
        <h1 id="cc-title" className="text-2xl font-bold">
          Cluster catalogs (OLM v1)
        </h1>
        <p>{list.data.message}</p>
      </section>
    );
  const { catalogs, canCreate } = list.data;
  return (
    <section aria-labelledby="cc-title" className="space-y-4">
      <div className="flex flex-wrap items-start gap-3">
        <h1 id="cc-title" className="mr-auto text-2xl font-bold">
          Cluster catalogs (OLM v1)
        </h1>
        <div className="flex flex-col items-end gap-1">
          <button
            type="button"
            disabled={!canCreate.allowed || open !== null}
            aria-describedby={canCreate.allowed ? undefined : 'cc-add-denied'}
            onClick={() => start({ kind: 'add' })}
            className="rounded bg-sky-700 px-3 py-1.5 text-sm font-semibold text-white disabled:bg-slate-300 disabled:text-slate-600"
          >
            Add ClusterCatalog
          </button>
          {!canCreate.allowed && (
            <p id="cc-add-denied" className="max-w-md text-right text-xs text-slate-600">
              You may not add ClusterCatalogs: {canCreate.reason}
            </p>
          )}
        </div>
      </div>
      <p className="text-sm text-slate-600">
        catalogd pulls each image and serves its content to operator-controller, which installs ClusterExtensions. When
        two catalogs offer the same bundle, the higher priority wins. {catalogs.length} catalog
        {catalogs.length === 1 ? '' : 's'}. <LiveNotice state={live} />
      </p>
      {done && (
        <p role="status" className="rounded border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
          {done}
        </p>
      )}
      {enable.error && <ErrorNotice error={enable.error} what="The catalog was not enabled" />}
      {open?.kind === 'add' && <AddClusterCatalog onDone={finish} onCancel={() => setOpen(null)} />}
      <StackedTable
        label="ClusterCatalogs"
        columns={[
          'Catalog',
          'Status',
          'Priority',
          'Polling',
          'Last unpacked',
          'Packages',
          { label: 'Actions', hidden: true },
        ]}
      >
        {catalogs.map((c) => {
          const mine = open && open.kind !== 'add' && open.name === c.name ? open.kind : undefined;
          const editDenied = c.canEdit.allowed ? undefined : `You may not change it: ${c.canEdit.reason}`;
          const deleteDenied = c.canDelete.allowed ? undefined : `You may not delete it: ${c.canDelete.reason}`;
          return (
            <StackedRow key={c.name}>
              <StackedCell label="Catalog">
                <span className="font-semibold">{c.name}</span>
                <span className="block font-mono text-xs text-slate-700">{c.imageRef}</span>
                {c.resolvedRef && (
                  <span className="block font-mono text-xs text-slate-600" title="status.resolvedSource">
                    resolved: {c.resolvedRef}
                  </span>
                )}
              </StackedCell>
              <StackedCell label="Status">
                <Badge tone={c.healthy ? (c.state === 'Disabled' ? 'neutral' : 'ok') : 'error'}>{c.state}</Badge>
                <CatalogStatus row={c} />
              </StackedCell>
              <StackedCell label="Priority">{c.priority}</StackedCell>
              <StackedCell label="Polling">
                {c.pollIntervalMinutes === undefined ? 'never' : `every ${c.pollIntervalMinutes} min`}
              </StackedCell>
              <StackedCell label="Last unpacked">
                {c.lastUnpacked ? <RelativeTime iso={c.lastUnpacked} /> : '—'}
              </StackedCell>
              <StackedCell label="Packages">
                {c.content.read ? (
                  <>
                    {c.content.packages}
                    {c.content.brokenPackages > 0 && (
                      <span className="block text-xs text-amber-800" title={c.content.problems.join('\n')}>
                        and {c.content.brokenPackages} the console cannot read: {c.content.problems[0]}
                      </span>
                    )}
                  </>
                ) : (
                  <span className="text-xs text-slate-600">Not read: {c.content.why}</span>
                )}
              </StackedCell>
              <StackedCell label="Actions">
                <div className="flex flex-wrap gap-2">
                  {c.availabilityMode === 'Available' ? (
                    <button
                      type="button"
                      className={`${BUTTON} border-amber-300 text-amber-900`}
                      disabled={!!editDenied || open !== null || c.deleting}
                      title={editDenied}
                      onClick={() => start({ kind: 'disable', name: c.name })}
                    >
                      Disable
                    </button>
                  ) : (
                    <button
                      type="button"
                      className={`${BUTTON} border-sky-300 text-sky-900`}
                      disabled={!!editDenied || open !== null || enable.isPending || c.deleting}
                      title={editDenied}
                      onClick={() => enable.mutate(c)}
                    >
                      Enable
                    </button>
                  )}
                  <button
                    type="button"
                    className={`${BUTTON} border-slate-300`}
                    disabled={!!editDenied || open !== null || c.deleting}
                    title={editDenied}
                    onClick={() => start({ kind: 'edit', name: c.name })}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    className={`${BUTTON} border-red-300 text-red-800`}
                    disabled={!!deleteDenied || open !== null || c.deleting}
                    title={deleteDenied}
                    onClick={() => start({ kind: 'delete', name: c.name })}
                  >
                    Delete
                  </button>
                </div>
                {(editDenied || deleteDenied) && (
                  <p className="mt-1 text-xs text-slate-600">
                    {editDenied && <span className="block">{editDenied}</span>}
                    {deleteDenied && <span className="block">{deleteDenied}</span>}
                  </p>
                )}
                {mine === 'edit' && <EditClusterCatalog row={c} onDone={finish} onCancel={() => setOpen(null)} />}
                {(mine === 'delete' || mine === 'disable') && (
                  <ConfirmCatalogChange row={c} action={mine} onDone={finish} onCancel={() => setOpen(null)} />
                )}
              </StackedCell>
            </StackedRow>
          );
        })}
      </StackedTable>
    </section>
  );
}
