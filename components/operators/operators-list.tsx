'use client';
// Installed Operators: one row per operator (or per Subscription still installing) in a namespace
// or the whole cluster, live. In one namespace an operator that is only OLM's copy says where it
// comes from; across all namespaces copies are folded into their source's count, never listed.
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useSearchParams } from 'next/navigation';
import { useClusterRouter } from '@/lib/client/cluster';
import { useEffect, useMemo, useState } from 'react';
import type { InstalledOperatorRow, InstalledOperatorsResponse } from '@/lib/api/operators';
import { apiGet } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { LiveNotice } from '@/components/common/live-notice';
import { usePermission } from '@/lib/client/permissions';
import { Badge, UpgradeBadge } from '../common/badges';
import { DeprecatedBadge } from '../common/deprecated-badge';
import { ErrorPanel } from '../common/error-panel';
import { RelativeTime } from '../common/relative-time';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';
import { leftoversHref } from './leftovers-href';
import { NamespaceChooser } from '../common/namespace-chooser';
import { openingNamespace, useMyNamespaces } from '../common/namespace-memory';
import { UninstallDialog } from './uninstall-dialog';
import type { ExtensionRow } from '@/lib/api/olm-v1-extensions';
import { ExtensionListRow } from '../olm-v1/extension/extension-list-row';
import { OlmBadge } from '../olm-v1/extension/olm-badge';

type Sort = 'name' | 'namespace' | 'status' | 'updated';
type Entry = { name: string; namespace: string; updated?: string } & (
  { olm: 'v0'; row: InstalledOperatorRow } | { olm: 'v1'; row: ExtensionRow }
);

const COLUMNS = [
  'Name',
  'Namespace',
  'Managed namespaces',
  'Status',
  'Upgrade',
  'Last updated',
  { label: 'Actions', hidden: true },
];

export function operatorHref(namespace: string, csv: string, tab?: string): string {
  return `/operators/${encodeURIComponent(namespace)}/${encodeURIComponent(csv)}${tab ? `?tab=${tab}` : ''}`;
}

function managed(row: InstalledOperatorRow): string {
  if (row.managedNamespaces === 'all') return 'All namespaces';
  if (!row.managedNamespaces) return '—';
  return row.managedNamespaces.join(', ') || '—';
}

export function OperatorsList() {
  const params = useSearchParams();
  const router = useClusterRouter();
  const asked = params.get('namespace');
  // With no namespace in the URL the page opens where the person can look: every namespace for
  // someone who may read them all, else their first namespace (a namespace admin lands on hers
  // rather than on a cluster-wide Forbidden); with none known yet, the chooser asks for one.
  // A failed chooser says why itself; logged out, its 401 is already taking the tab to the login
  // page, and opening the list too would race that with the live view's own redirect.
  const opening = openingNamespace(useMyNamespaces().data);
  const namespace = asked ?? (opening === '' ? '' : undefined);
  useEffect(() => {
    if (asked === null && opening)
      router.replace(`/operators?namespace=${encodeURIComponent(opening)}`, { scroll: false });
  }, [asked, opening, router]);
  const [text, setText] = useState('');
  const [status, setStatus] = useState('');
  const [catalog, setCatalog] = useState('');
  const [sort, setSort] = useState<Sort>('name');
  const [showCopies, setShowCopies] = useState(true);
  const [uninstalling, setUninstalling] = useState<InstalledOperatorRow | undefined>();
  const key = ['operators', namespace ?? ''];
  const list = useQuery({
    enabled: namespace !== undefined,
    queryKey: key,
    queryFn: ({ signal }) =>
      apiGet<InstalledOperatorsResponse>(
        `/api/operators${namespace ? `?namespace=${encodeURIComponent(namespace)}` : ''}`,
        signal,
      ),
  });
  // Cluster-wide, only the operators' own CSVs are watched: copies would stream by the thousand.
  const live = useLiveRefresh(
    key,
    namespace || undefined,
    [namespace ? 'clusterserviceversions' : 'operatorcsvs', 'subscriptions', 'installplans'],
    namespace !== undefined,
  );
  // ClusterExtensions are cluster-scoped, so they are watched on their own stream, and only once
  // the list has shown the person may read them (no refused watch for anyone else).
  useLiveRefresh(key, undefined, ['clusterextensions'], namespace !== undefined && !!list.data?.extensions);

  const rows = list.data?.operators;
  const extensions = list.data?.extensions;
  const total = rows ? rows.length + (extensions?.length ?? 0) : 0;
  const statuses = useMemo(
    () =>
      [
        ...new Set([...(rows ?? []).map((r) => r.status.label), ...(extensions ?? []).map((e) => e.status.label)]),
      ].sort(),
    [rows, extensions],
  );
  const catalogs = useMemo(
    () =>
      [
        ...new Set(
          (rows ?? []).flatMap((r) =>
            r.subscription ? [`${r.subscription.catalog.namespace}/${r.subscription.catalog.name}`] : [],
          ),
        ),
      ].sort(),
    [rows],
  );
  const shown = useMemo(() => {
    const t = text.trim().toLowerCase();
    const v0: Entry[] = (rows ?? [])
      .filter(
        (r) =>
          (showCopies || !r.copiedFrom) &&
          (!t || `${r.displayName} ${r.csvName ?? ''} ${r.subscription?.package ?? ''}`.toLowerCase().includes(t)) &&
          (!status || r.status.label === status) &&
          (!catalog ||
            (r.subscription && `${r.subscription.catalog.namespace}/${r.subscription.catalog.name}` === catalog)),
      )
      .map((r) => ({ olm: 'v0', row: r, name: r.displayName, namespace: r.namespace, updated: r.lastUpdated }));
    // ClusterExtensions name no CatalogSource: a catalog filter leaves them out.
    const v1: Entry[] = (catalog ? [] : (extensions ?? []))
      .filter(
        (e) =>
          (!t || `${e.name} ${e.package ?? ''}`.toLowerCase().includes(t)) && (!status || e.status.label === status),
      )
      .map((e) => ({ olm: 'v1', row: e, name: e.name, namespace: e.namespace ?? '', updated: e.lastUpdated }));
    const label = (x: Entry) => x.row.status.label;
    const by: Record<Sort, (a: Entry, b: Entry) => number> = {
      name: (a, b) => a.name.localeCompare(b.name) || a.namespace.localeCompare(b.namespace),
      namespace: (a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name),
      status: (a, b) => label(a).localeCompare(label(b)) || a.name.localeCompare(b.name),
      updated: (a, b) => (b.updated ?? '').localeCompare(a.updated ?? ''),
    };
    return [...v0, ...v1].sort(by[sort]);
  }, [rows, extensions, text, status, catalog, sort, showCopies]);

  const setNamespace = (ns: string) =>
    router.replace(ns ? `/operators?namespace=${encodeURIComponent(ns)}` : '/operators', { scroll: false });

  return (
    <section aria-labelledby="operators-title" className="space-y-4">
      <div className="flex flex-wrap items-end gap-4">
        <h1 id="operators-title" className="mr-auto text-2xl font-bold">
          Installed Operators
        </h1>
        <NamespaceChooser value={namespace ?? ''} onChange={setNamespace} allowAll />
      </div>
      <div className="flex flex-wrap items-end gap-4 text-sm">
        <label className="flex flex-col">
          <span className="font-medium text-slate-700">Filter by name</span>
          <input
            type="search"
            value={text}
            onChange={(e) => setText(e.target.value)}
            className="w-56 rounded border border-slate-300 px-2 py-1.5"
          />
        </label>
        <div className="flex flex-col">
          <label htmlFor="filter-status" className="font-medium text-slate-700">
            Status
          </label>
          <select
            id="filter-status"
            value={status}
            onChange={(e) => setStatus(e.target.value)}
            className="rounded border border-slate-300 bg-white px-2 py-1.5"
          >
            <option value="">Any</option>
            {statuses.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </div>
        <div className="flex flex-col">
          <label htmlFor="filter-catalog" className="font-medium text-slate-700">
            Catalog
          </label>
          <select
            id="filter-catalog"
            value={catalog}
            onChange={(e) => setCatalog(e.target.value)}
            className="rounded border border-slate-300 bg-white px-2 py-1.5"
          >
            <option value="">Any</option>
            {catalogs.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </div>
        <div className="flex flex-col">
          <label htmlFor="sort-operators" className="font-medium text-slate-700">
            Sort by
          </label>
          <select
            id="sort-operators"
            value={sort}
            onChange={(e) => setSort(e.target.value as Sort)}
            className="rounded border border-slate-300 bg-white px-2 py-1.5"
          >
            <option value="name">Name</option>
            <option value="namespace">Namespace</option>
            <option value="status">Status</option>
            <option value="updated">Last updated</option>
          </select>
        </div>
        {namespace && (
          <label className="flex items-center gap-2 pb-1.5">
            <input type="checkbox" checked={showCopies} onChange={(e) => setShowCopies(e.target.checked)} /> Show copied
            operators
          </label>
        )}
        <LiveNotice
          state={live}
          inline={false}
          className="pb-1.5 text-amber-800"
          reconnecting="Reconnecting to the cluster: the list may be behind."
        />
      </div>

      {list.data?.copiedCsvsDisabled && (
        <p role="note" className="rounded border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-700">
          Copied CSVs are disabled on this cluster (OLMConfig <code>spec.features.disableCopiedCSVs</code>): operators
          installed for all namespaces do not appear in each namespace, and a namespace&apos;s users see only what is
          installed in it.
        </p>
      )}
      {list.error && (
        <ErrorPanel
          level={2}
          error={list.error}
          title="Installed operators could not be read"
          onRetry={() => void list.refetch()}
          back={namespace ? [{ href: '/operators', label: 'All namespaces' }] : []}
        />
      )}
      {list.isPending && namespace !== undefined && <p role="status">Loading installed operators…</p>}
      {opening === null && namespace === undefined && (
        <p className="rounded border border-dashed border-slate-300 p-8 text-center text-slate-600">
          You see the operators of one namespace at a time: name yours in the Namespace field above.
        </p>
      )}
      {rows && (
        <>
          <p role="status" className="text-sm text-slate-600">
            {shown.length} of {total} operators
            {namespace && list.data?.copies ? ` (${list.data.copies} copied here)` : ''}
          </p>
          {shown.length === 0 ? (
            <p className="rounded border border-dashed border-slate-300 p-8 text-center text-slate-600">
              {total === 0
                ? `No operators are installed${namespace ? ` in ${namespace}` : ''}. `
                : 'No operator matches these filters.'}
              {total === 0 && (
                <Link className="text-sky-700 underline" href="/operatorhub">
                  Browse OperatorHub
                </Link>
              )}
            </p>
          ) : (
            <StackedTable label="Installed operators" columns={COLUMNS}>
              {shown.map((e) =>
                e.olm === 'v0' ? (
                  <OperatorRow key={e.row.key} row={e.row} onUninstall={setUninstalling} />
                ) : (
                  <ExtensionListRow key={`v1/${e.row.name}`} row={e.row} />
                ),
              )}
            </StackedTable>
          )}
        </>
      )}
      {uninstalling?.csvName && (
        <UninstallDialog
          namespace={uninstalling.namespace}
          csv={uninstalling.csvName}
          onClose={() => setUninstalling(undefined)}
        />
      )}
    </section>
  );
}

function OperatorRow({
  row,
  onUninstall,
}: {
  row: InstalledOperatorRow;
  onUninstall: (r: InstalledOperatorRow) => void;
}) {
  const perm = usePermission(row.copiedFrom ? undefined : row.namespace, 'uninstall');
  const name = row.csvName ? (
    <Link className="font-medium text-sky-800 underline" href={operatorHref(row.namespace, row.csvName)}>
      {row.displayName}
    </Link>
  ) : row.subscription ? (
    <Link
      className="font-medium text-sky-800 underline"
      href={`/installs/${encodeURIComponent(row.namespace)}/${encodeURIComponent(row.subscription.name)}`}
    >
      {row.displayName}
    </Link>
  ) : (
    row.displayName
  );
  return (
    <StackedRow>
      <StackedCell label="Name">
        {name} <OlmBadge olm="v0" />
        {row.deprecation && (
          <>
            {' '}
            <DeprecatedBadge description={row.deprecation.text} />
          </>
        )}
        <div className="text-xs text-slate-600">
          {row.version ? `${row.version}` : ''}
          {row.provider ? ` by ${row.provider}` : ''}
        </div>
        {row.copiedFrom && row.csvName && (
          <div className="text-xs">
            Copied from{' '}
            <Link className="text-sky-700 underline" href={operatorHref(row.copiedFrom, row.csvName)}>
              {row.copiedFrom}
            </Link>
          </div>
        )}
        {!row.copiedFrom && row.copies.count > 0 && (
          <div className="text-xs text-slate-600">{row.copies.count} copies in watched namespaces</div>
        )}
        {row.halfGone && (
          <div className="text-xs text-amber-900">
            Half gone: {row.halfGone}.{' '}
            <Link
              className="font-semibold text-sky-700 underline"
              href={leftoversHref(row.namespace, {
                ...(row.subscription ? { subscription: row.subscription.name } : {}),
                ...(row.csvName ? { csv: row.csvName } : {}),
              })}
              aria-label={`What is left of ${row.displayName} in ${row.namespace}`}
            >
              What is left
            </Link>
          </div>
        )}
      </StackedCell>
      <StackedCell label="Namespace">{row.namespace}</StackedCell>
      <StackedCell label="Managed namespaces">{managed(row)}</StackedCell>
      <StackedCell label="Status">
        <Badge tone={row.status.severity} title={row.status.detail}>
          {row.status.label}
        </Badge>
        {row.status.severity !== 'ok' && (
          <div className="mt-0.5 max-w-xs text-xs text-slate-600">{row.status.detail}</div>
        )}
      </StackedCell>
      <StackedCell label="Upgrade">
        {row.upgrade ? <UpgradeBadge upgrade={row.upgrade} namespace={row.namespace} /> : '—'}
      </StackedCell>
      <StackedCell label="Last updated" className="text-xs text-slate-600">
        <RelativeTime iso={row.lastUpdated} />
      </StackedCell>
      <StackedCell className="text-right @max-3xl:text-left">
        {!row.copiedFrom && row.csvName && (
          <button
            type="button"
            disabled={perm.allowed !== true}
            title={
              perm.allowed === false
                ? `You may not uninstall in ${row.namespace}: ${perm.reason ?? 'the cluster refused'}`
                : undefined
            }
            aria-label={`Uninstall ${row.displayName} from ${row.namespace}`}
            onClick={() => onUninstall(row)}
            className="rounded border border-red-300 px-2 py-1 text-xs text-red-800 hover:bg-red-50 disabled:cursor-not-allowed disabled:border-slate-200 disabled:text-slate-400"
          >
            Uninstall
          </button>
        )}
      </StackedCell>
    </StackedRow>
  );
}
