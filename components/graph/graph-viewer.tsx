'use client';
// The full upgrade-graph viewer of a package: pick a channel, see every bundle along the version
// axis with its edges by kind, the head and the bundles OLM never upgrades to; pick any version as
// a starting point ("what if I were on…") and see the path OLM walks, step by step; click, search
// or arrow to a bundle for its facts and a link to install exactly that version. The same graph is
// listed below as a table for screen readers and keyboard users. Where the catalog's edges are not
// known (PackageManifests), the versions are shown in order and the page says so.
import { useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter, useSearchParams } from 'next/navigation';
import { useMemo, useRef, useState } from 'react';
import { apiGet } from '@/lib/client/api';
import type { GraphView } from '@/lib/hub/catalog-types';
import { byVersion } from '@/lib/hub/graph-layout';
import { ErrorNotice, Warning } from '../common/notice';
import { packageApiBase, usePackageDetails, type PackageRefProps } from '../details/package-details-view';
import { GraphCanvas, type GraphCanvasHandle } from './graph-canvas';

const LEGEND = [
  { key: 'replaces', label: 'replaces', line: 'border-t-2 border-slate-600' },
  { key: 'skips', label: 'skips', line: 'border-t-2 border-dashed border-violet-600' },
  { key: 'skipRange', label: 'skipRange', line: 'border-t-2 border-dotted border-cyan-600' },
] as const;

export function GraphViewer(props: PackageRefProps) {
  const params = useSearchParams();
  const router = useRouter();
  const channel = params.get('channel') ?? undefined;
  const from = params.get('from') ?? undefined;
  const namespace = params.get('namespace') ?? undefined;
  const [selected, setSelected] = useState<string | undefined>(from);
  const [search, setSearch] = useState('');
  const canvas = useRef<GraphCanvasHandle>(null);
  const q = new URLSearchParams();
  if (channel) q.set('channel', channel);
  if (from) q.set('from', from);
  if (namespace) q.set('namespace', namespace);
  const graph = useQuery({
    queryKey: ['graph-full', props.catalogNamespace, props.catalog, props.pkg, channel ?? '', from ?? '', namespace ?? ''],
    queryFn: ({ signal }) => apiGet<GraphView>(`${packageApiBase(props)}/graph${q.size ? `?${q}` : ''}`, signal),
    placeholderData: (prev) => prev,
  });
  const g = graph.data;
  const node = g?.nodes.find((n) => n.name === selected);
  const facts = usePackageDetails(props, g?.channel, node ? node.name : undefined, namespace);
  const ordered = useMemo(() => (g ? byVersion(g.nodes).reverse() : []), [g]);

  const setParam = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    router.replace(`?${next}`, { scroll: false });
  };
  const choose = (name: string) => {
    setSelected(name);
    canvas.current?.focus(name);
  };

  if (graph.error) return <ErrorNotice error={graph.error} what={`The graph of ${props.pkg} could not be loaded`} />;
  if (!g) return <p role="status">Loading the graph of {props.pkg}…</p>;
  const detailsHref = `/operatorhub/${encodeURIComponent(props.catalogNamespace)}/${encodeURIComponent(props.catalog)}/${encodeURIComponent(props.pkg)}`;
  const installHref = (csv: string) => `${detailsHref}/install?${new URLSearchParams({ channel: g.channel, version: csv, ...(namespace ? { namespace } : {}) })}`;
  const step = new Map((g.path?.steps ?? []).map((s, i) => [s.to, i + 1]));

  return (
    <article className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link className="text-sky-700 underline" href="/operatorhub">OperatorHub</Link> / <Link className="text-sky-700 underline" href={detailsHref}>{props.pkg}</Link> / upgrade graph
      </nav>
      <h1 className="text-2xl font-bold">Upgrade graph of {props.pkg}</h1>
      <div className="flex flex-wrap items-end gap-4 text-sm">
        <div className="flex flex-col">
          <label htmlFor="graph-channel" className="font-medium text-slate-700">Channel</label>
          <select id="graph-channel" value={g.channel} onChange={(e) => { setSelected(undefined); setParam({ channel: e.target.value, from: undefined }); }} className="rounded border border-slate-300 bg-white px-2 py-1.5">
            {g.channels.map((c) => <option key={c} value={c}>{c}</option>)}
          </select>
        </div>
        {g.edgesKnown && (
          <div className="flex flex-col">
            <label htmlFor="graph-from" className="font-medium text-slate-700">Path from (installed version)</label>
            <select id="graph-from" value={from ?? ''} onChange={(e) => { setSelected(e.target.value || undefined); setParam({ from: e.target.value || undefined }); }} className="rounded border border-slate-300 bg-white px-2 py-1.5">
              <option value="">None</option>
              {ordered.map((n) => <option key={n.name} value={n.name}>{n.version ?? n.name}</option>)}
            </select>
          </div>
        )}
        <form className="flex flex-col" onSubmit={(e) => { e.preventDefault(); const t = search.trim(); const hit = g.nodes.find((n) => n.version === t || n.name === t) ?? g.nodes.find((n) => (n.version ?? n.name).includes(t)); if (hit) choose(hit.name); }}>
          <label htmlFor="graph-search" className="font-medium text-slate-700">Find a version</label>
          <input id="graph-search" type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder="e.g. 3.14.0" className="w-40 rounded border border-slate-300 px-2 py-1.5" />
        </form>
        <div className="flex gap-1 pb-0.5">
          <button type="button" onClick={() => canvas.current?.fit()} className="rounded border border-slate-300 bg-white px-2 py-1">Fit</button>
          <button type="button" aria-label="Zoom in" onClick={() => canvas.current?.zoom(1.25)} className="rounded border border-slate-300 bg-white px-2 py-1">+</button>
          <button type="button" aria-label="Zoom out" onClick={() => canvas.current?.zoom(0.8)} className="rounded border border-slate-300 bg-white px-2 py-1">−</button>
        </div>
      </div>

      {!g.edgesKnown && <Warning title="Edges unknown">{g.note ?? 'This catalog is read through PackageManifests, which carry no upgrade edges.'} The versions are shown in order; no edges are drawn.</Warning>}
      {g.deprecation && <Warning title={`Channel ${g.channel} is deprecated`}>{g.deprecation}</Warning>}
      {g.problems.map((p) => <Warning key={p} title="Problem in this channel">{p}</Warning>)}
      {g.path && (
        <p role="status" className="rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm">
          {g.path.steps.length === 0
            ? `${g.path.from} is the head: there is nothing to upgrade to.`
            : `From ${g.path.from}, OLM makes ${g.path.steps.length} InstallPlan${g.path.steps.length === 1 ? '' : 's'}: ${g.path.steps.map((s) => s.to).join(' → ')}; the next one installs ${g.path.steps[0]!.to}.`}
          {!g.path.reachesHead && ` It stops at ${g.path.end}${g.path.error ? `: ${g.path.error}` : ''}; the head ${g.head ?? ''} is out of reach from there.`}
        </p>
      )}

      <div className="grid gap-4 lg:grid-cols-[1fr_20rem]">
        <div className="space-y-2">
          <GraphCanvas ref={canvas} graph={g} selected={selected} onSelect={setSelected} label={`Upgrade graph of ${g.channel}: use the arrow keys to move between versions`} />
          <ul aria-label="Legend" className="flex flex-wrap gap-4 text-xs text-slate-700">
            {LEGEND.map((l) => <li key={l.key} className="flex items-center gap-1.5"><span aria-hidden="true" className={`inline-block w-6 ${l.line}`} />{l.label} ({g.edgeCounts[l.key]})</li>)}
            <li className="flex items-center gap-1.5"><span aria-hidden="true" className="inline-block h-3 w-3 rounded-full bg-emerald-700" />channel head</li>
            <li className="flex items-center gap-1.5"><span aria-hidden="true" className="inline-block h-3 w-3 rounded-full border-2 border-dashed border-slate-500" />never an upgrade target</li>
            <li className="flex items-center gap-1.5"><span aria-hidden="true" className="inline-block h-3 w-3 rounded-full border-2 border-amber-600 bg-amber-100" />deprecated</li>
            <li className="flex items-center gap-1.5"><span aria-hidden="true" className="inline-block w-6 border-t-4 border-sky-700" />path OLM walks</li>
          </ul>
        </div>
        <aside aria-label="Selected version" className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm">
          {!node ? (
            <p className="text-slate-600">Click a version, or focus the graph and use the arrow keys, to see its facts.</p>
          ) : (
            <>
              <h2 className="text-base font-semibold">{node.version ?? node.name}</h2>
              <dl className="space-y-1">
                <div><dt className="inline text-slate-600">CSV: </dt><dd className="inline break-all">{node.name}</dd></div>
                {facts.data?.selected.csv?.createdAt && <div><dt className="inline text-slate-600">Created: </dt><dd className="inline">{facts.data.selected.csv.createdAt}</dd></div>}
                {node.replaces && <div><dt className="inline text-slate-600">Replaces: </dt><dd className="inline">{node.replaces}</dd></div>}
                {node.skips.length > 0 && <div><dt className="inline text-slate-600">Skips: </dt><dd className="inline">{node.skips.join(', ')}</dd></div>}
                {node.skipRange && <div><dt className="inline text-slate-600">skipRange: </dt><dd className="inline">{node.skipRange}{node.skipRangeError ? ` (invalid: ${node.skipRangeError})` : ''}</dd></div>}
                {node.coveredBySkipRangeOf.length > 0 && <div><dt className="inline text-slate-600">Pruned by the skipRange of: </dt><dd className="inline">{node.coveredBySkipRangeOf.join(', ')}</dd></div>}
                <div><dt className="inline text-slate-600">Channels: </dt><dd className="inline">{node.channels.join(', ')}</dd></div>
              </dl>
              {node.isHead && <p className="font-medium text-emerald-800">Head of {g.channel}.</p>}
              {node.neverTarget && <p className="text-amber-900">Never an upgrade target: {node.neverTarget}</p>}
              {(node.deprecation || node.legacyDeprecated) && <p className="text-amber-900">Deprecated{node.deprecation ? `: ${node.deprecation}` : ' (olm.deprecated): OLM never installs it'}</p>}
              <div className="flex flex-wrap gap-3 pt-1">
                <Link className="text-sky-700 underline" href={installHref(node.name)}>Install this version</Link>
                {g.edgesKnown && <button type="button" className="text-sky-700 underline" onClick={() => setParam({ from: node.name })}>Path from here</button>}
              </div>
            </>
          )}
        </aside>
      </div>

      <details className="text-sm" open={false}>
        <summary className="cursor-pointer text-sky-700">The same graph as a list</summary>
        <table aria-label={`Versions of ${g.channel}`} className="mt-2 w-full border-collapse">
          <thead>
            <tr className="border-b border-slate-300 text-left text-slate-600"><th className="py-1 pr-3">Version</th><th className="py-1 pr-3">Upgrades from</th><th className="py-1 pr-3">Notes</th><th className="py-1">Path step</th></tr>
          </thead>
          <tbody>
            {ordered.map((n) => (
              <tr key={n.name} className="border-b border-slate-100 align-top">
                <td className="py-1 pr-3"><button type="button" className="text-sky-700 underline" onClick={() => choose(n.name)}>{n.version ?? n.name}</button></td>
                <td className="py-1 pr-3">{[n.replaces && `replaces ${n.replaces}`, n.skips.length > 0 && `skips ${n.skips.join(', ')}`, n.skipRange && `skipRange ${n.skipRange}`].filter(Boolean).join('; ') || '—'}</td>
                <td className="py-1 pr-3">{[n.isHead && 'head', n.neverTarget && `never an upgrade target: ${n.neverTarget}`, n.deprecation && `deprecated: ${n.deprecation}`].filter(Boolean).join('; ')}</td>
                <td className="py-1">{g.path?.from === n.name ? 'start' : step.get(n.name) ? `step ${step.get(n.name)}` : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </article>
  );
}
