'use client';
// The channel's upgrade graph in a line: versions newest first by SemVer, the head marked, how each
// one is reached, and the versions OLM never upgrades to (skipped) said in words.
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { apiGet } from '@/lib/client/api';
import type { GraphView } from '@/lib/hub/catalog-types';
import { sortNewestFirst } from '@/lib/olm/semver/version';
import { ErrorNotice } from '../common/notice';

export function CompactGraph({
  base,
  channel,
  namespace,
  viewerHref,
}: {
  base: string;
  channel: string;
  namespace?: string;
  /** The interactive graph's page, where there is one (CatalogSources' packages). */
  viewerHref?: string;
}) {
  const q = new URLSearchParams({ channel });
  if (namespace) q.set('namespace', namespace);
  const graph = useQuery({
    queryKey: ['graph', base, channel, namespace ?? ''],
    queryFn: ({ signal }) => apiGet<GraphView>(`${base}/graph?${q}`, signal),
  });
  if (graph.error) return <ErrorNotice error={graph.error} what="The upgrade graph could not be loaded" />;
  if (!graph.data)
    return (
      <p role="status" className="text-sm text-slate-600">
        Loading the upgrade graph…
      </p>
    );
  const g = graph.data;
  const nodes = sortNewestFirst(
    g.nodes,
    (n) => n.version,
    (n) => n.name,
  );
  return (
    <section aria-label="Upgrade graph" className="space-y-2">
      <div className="flex flex-wrap items-baseline gap-3">
        <h2 className="text-lg font-semibold">Upgrade graph of {g.channel}</h2>
        {viewerHref && (
          <Link className="text-sm text-sky-700 underline" href={viewerHref}>
            Open the interactive graph
          </Link>
        )}
      </div>
      {!g.edgesKnown && <p className="text-sm text-slate-600">{g.note}</p>}
      {g.edgesKnown && (
        <p className="text-xs text-slate-500">
          {g.nodes.length} versions · {g.edgeCounts.replaces} replaces · {g.edgeCounts.skips} skips ·{' '}
          {g.edgeCounts.skipRange} skipRange edges
        </p>
      )}
      <ol className="flex flex-wrap items-center gap-1 text-sm" aria-label={`Versions of ${g.channel}, newest first`}>
        {nodes.map((n, i) => (
          <li key={n.name} className="flex items-center gap-1">
            <span
              title={[
                n.name,
                n.replaces && `replaces ${n.replaces}`,
                n.skips.length ? `skips ${n.skips.join(', ')}` : '',
                n.skipRange && `skipRange ${n.skipRange}`,
                n.neverTarget,
                n.deprecation && `deprecated: ${n.deprecation}`,
              ]
                .filter(Boolean)
                .join('\n')}
              className={`rounded border px-2 py-0.5 ${n.isHead ? 'border-emerald-600 bg-emerald-50 font-semibold text-emerald-900' : n.neverTarget ? 'border-dashed border-slate-500 text-slate-700' : 'border-slate-300 bg-white'} ${n.deprecation ? 'line-through decoration-amber-600' : ''}`}
            >
              {n.version ?? n.name}
              {n.isHead && <span className="ml-1 text-xs">(head)</span>}
              {n.neverTarget && (
                <span className="ml-1 text-xs">
                  ({n.skippedBy.length ? `skipped by ${n.skippedBy.join(', ')}: ` : ''}never an upgrade target)
                </span>
              )}
              {n.deprecation && <span className="ml-1 text-xs">(deprecated)</span>}
            </span>
            {i < nodes.length - 1 && (
              <span aria-hidden="true" className="text-slate-400">
                ←
              </span>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
