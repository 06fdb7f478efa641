'use client';
// Every CatalogSource the person may see: who publishes it, where its content comes from, its
// priority, its health in words (what TRANSIENT_FAILURE means, and which Subscriptions it holds
// back), and its packages; live.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import type { CatalogSourcesResponse } from '@/lib/api/catalog-sources';
import { apiGet } from '@/lib/client/api';
import { useLiveRefresh } from '@/lib/client/live';
import { Badge } from '../common/badges';
import { ErrorNotice } from '../common/notice';

export function CatalogSourcesView() {
  const key = ['catalogsources'];
  const list = useQuery({ queryKey: key, queryFn: ({ signal }) => apiGet<CatalogSourcesResponse>('/api/catalogsources', signal) });
  useLiveRefresh(key, undefined, ['catalogsources']);
  if (list.error) return <ErrorNotice error={list.error} what="Catalog sources could not be read" />;
  if (!list.data) return <p role="status">Loading catalog sources…</p>;
  const rows = list.data.catalogSources;
  return (
    <section aria-labelledby="catalogs-title" className="space-y-4">
      <h1 id="catalogs-title" className="text-2xl font-bold">Catalog sources</h1>
      <p className="text-sm text-slate-600">When two catalogs offer the same package, OLM prefers the one with the higher priority. {rows.length} catalog{rows.length === 1 ? '' : 's'}.</p>
      <ul aria-label="Catalog sources" className="space-y-4">
        {rows.map((c) => (
          <li key={`${c.namespace}/${c.name}`} className="space-y-2 rounded-lg border border-slate-200 bg-white p-4">
            <div className="flex flex-wrap items-baseline gap-3">
              <h2 className="text-lg font-semibold">{c.displayName}</h2>
              <span className="text-sm text-slate-600">{c.namespace}/{c.name}</span>
              <Badge tone={c.health.healthy ? 'ok' : 'error'}>{c.health.state}</Badge>
            </div>
            <dl className="grid grid-cols-[10rem_1fr] gap-x-4 gap-y-0.5 text-sm">
              <dt className="text-slate-600">Publisher</dt><dd>{c.publisher || '—'}</dd>
              <dt className="text-slate-600">Type</dt><dd>{c.sourceType}{c.origin ? ` · ${c.origin}` : ''}{c.pollInterval ? ` · polled every ${c.pollInterval}` : ''}</dd>
              <dt className="text-slate-600">Priority</dt><dd>{c.priority}</dd>
              <dt className="text-slate-600">Last connect</dt><dd>{c.health.lastConnect ? new Date(c.health.lastConnect).toLocaleString() : '—'}</dd>
              <dt className="text-slate-600">Packages</dt><dd>{c.packages.length}{c.readVia === 'packagemanifests' ? ' (read through PackageManifests: no upgrade edges)' : ''}</dd>
            </dl>
            <p className={`text-sm ${c.health.healthy ? 'text-slate-700' : 'text-red-900'}`}>{c.health.explanation}</p>
            {c.problem && <p className="text-sm text-amber-800">The console could not read its packages: {c.problem}.</p>}
            {c.blockedSubscriptions.length > 0 && (
              <div role="note" className="rounded border border-red-200 bg-red-50 px-3 py-2 text-sm">
                <p className="font-semibold">Blocked subscriptions (CatalogSourcesUnhealthy)</p>
                <ul className="list-disc pl-5">
                  {c.blockedSubscriptions.map((s) => (
                    <li key={`${s.namespace}/${s.name}`}>
                      <Link className="underline" href={`/installs/${encodeURIComponent(s.namespace)}/${encodeURIComponent(s.name)}`}>{s.namespace}/{s.name}</Link>
                      {s.message ? `: ${s.message}` : ''}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {c.packages.length > 0 && (
              <details className="text-sm">
                <summary className="cursor-pointer text-sky-700">Show its {c.packages.length} packages</summary>
                <ul className="mt-1 columns-2 gap-6 sm:columns-3">
                  {c.packages.map((p) => (
                    <li key={p}>
                      <Link className="text-sky-700 underline" href={`/operatorhub/${encodeURIComponent(c.namespace)}/${encodeURIComponent(c.name)}/${encodeURIComponent(p)}`}>{p}</Link>
                    </li>
                  ))}
                </ul>
              </details>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
