'use client';
// The full upgrade-graph viewer of a package: pick a channel, see every bundle along the version
// axis with its edges by kind, the head and the bundles OLM never upgrades to; pick any version as
// a starting point ("what if I were on…") and see the path OLM walks, step by step; click, search
// or arrow to a bundle for its facts and a link to install exactly that version. The same graph is
// listed below as a table for screen readers and keyboard users. Other channels can be overlaid,
// each in its colour. Opened from an installed operator, its version is marked and what holds its
// next upgrade back is said. Where the catalog's edges are not known (PackageManifests), the
// versions are shown in order and the page says so.
import { useQueries, useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useSearchParams } from 'next/navigation';
import { useClusterRouter } from '@/lib/client/cluster';
import { useMemo, useRef, useState } from 'react';
import type { GraphView } from '@/lib/hub/catalog-types';
import { drawChannel, overlayChannels } from '@/lib/hub/graph-drawing';
import { byVersion } from '@/lib/hub/graph-layout';
import { ErrorNotice, Warning } from '../common/notice';
import { StackedCell, StackedRow, StackedTable } from '../common/stacked-table';
import { PackageError, usePackageDetails, type PackageRefProps } from '../details/package-details-view';
import { ChannelSummary } from './channel-summary';
import { addCounts, EDGE_KINDS, hiddenKinds, shownParam } from './edge-kinds';
import { GraphCanvas, type GraphCanvasHandle } from './graph-canvas';
import { GraphLegend } from './graph-legend';
import { graphQuery } from './graph-query';
import { HiddenEdgesNote } from './hidden-edges-note';
import { InstalledNote } from './installed-note';

export function GraphViewer(props: PackageRefProps) {
  const params = useSearchParams();
  const router = useClusterRouter();
  const channel = params.get('channel') ?? undefined;
  const from = params.get('from') ?? undefined;
  const namespace = params.get('namespace') ?? undefined;
  const installed = params.get('installed') ?? undefined;
  // Kept here as well as in the URL, so a checkbox follows the click at once.
  const [overlayChosen, setOverlayChosen] = useState(() => (params.get('overlay') ?? '').split(',').filter(Boolean));
  const [selected, setSelected] = useState<string | undefined>(from);
  const [search, setSearch] = useState('');
  const canvas = useRef<GraphCanvasHandle>(null);
  const graph = useQuery({
    ...graphQuery(props, channel, from, namespace),
    placeholderData: (prev: GraphView | undefined) => prev,
  });
  const g = graph.data;
  const overlay = useMemo(
    () => (g && g.edgesKnown ? overlayChosen.filter((c) => c !== g.channel && g.channels.includes(c)) : []),
    [g, overlayChosen],
  );
  const others = useQueries({ queries: overlay.map((c) => graphQuery(props, c, undefined, namespace)) });
  const otherGraphs = others.map((o) => o.data).filter((d): d is GraphView => !!d);
  const otherKey = otherGraphs.map((o) => o.channel).join(',');
  // Memoised on what it depends on, so the canvas is rebuilt only when the picture changes.
  const drawn = useMemo(() => {
    if (!g) return undefined;
    return otherGraphs.length > 0
      ? overlayChannels([g, ...otherGraphs], installed)
      : { ...drawChannel(g, installed), legend: undefined };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- otherKey stands for otherGraphs, a new array each render
  }, [g, otherKey, installed]);
  // A bundle's facts come from the first shown channel that has it, the chosen channel first.
  const home = selected && g ? [g, ...otherGraphs].find((x) => x.nodes.some((n) => n.name === selected)) : undefined;
  const node = home?.nodes.find((n) => n.name === selected);
  const facts = usePackageDetails(props, home?.channel, node?.name, namespace);
  // The operator is called by its display name, as on its details page (the same query, cached).
  const pkgFacts = usePackageDetails(props, undefined, undefined, namespace);
  const title = pkgFacts.data?.selected.csv?.displayName || props.pkg;
  const ordered = useMemo(() => (g ? byVersion(g.nodes).reverse() : []), [g]);
  const counts = addCounts([g, ...otherGraphs].flatMap((x) => (x ? [x.edgeCounts] : [])));
  const hidden = hiddenKinds(params.get('edges'), counts);

  const setParam = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    router.replace(`?${next}`, { scroll: false });
  };
  const chooseOverlay = (channels: string[], also: Record<string, string | undefined> = {}) => {
    setOverlayChosen(channels);
    setParam({ ...also, overlay: channels.join(',') || undefined });
  };
  const setHidden = (next: readonly string[]) =>
    setParam({ edges: shownParam(EDGE_KINDS.filter((k) => next.includes(k))) });
  const choose = (name: string) => {
    setSelected(name);
    canvas.current?.focus(name);
  };

  if (graph.error) return <PackageError error={graph.error} {...props} onRetry={() => void graph.refetch()} />;
  if (!g) return <p role="status">Loading the graph of {props.pkg}…</p>;
  const detailsHref = `/operatorhub/${encodeURIComponent(props.catalogNamespace)}/${encodeURIComponent(props.catalog)}/${encodeURIComponent(props.pkg)}`;
  const installHref = (csv: string, channel: string) =>
    `${detailsHref}/install?${new URLSearchParams({ channel, version: csv, ...(namespace ? { namespace } : {}) })}`;
  const step = new Map((g.path?.steps ?? []).map((s, i) => [s.to, i + 1]));

  return (
    <article className="space-y-4">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600">
        <Link className="text-sky-700 underline" href="/operatorhub">
          OperatorHub
        </Link>{' '}
        /{' '}
        <Link className="text-sky-700 underline" href={detailsHref}>
          {title}
        </Link>{' '}
        / upgrade graph
      </nav>
      <h1 className="text-2xl font-bold">Upgrade graph of {title}</h1>
      <div className="flex flex-wrap items-end gap-4 text-sm">
        <div className="flex flex-col">
          <label htmlFor="graph-channel" className="font-medium text-slate-700">
            Channel
          </label>
          <select
            id="graph-channel"
            value={g.channel}
            onChange={(e) => {
              setSelected(undefined);
              chooseOverlay(
                overlay.filter((c) => c !== e.target.value),
                { channel: e.target.value, from: undefined },
              );
            }}
            className="rounded border border-slate-300 bg-white px-2 py-1.5"
          >
            {g.channels.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        {g.edgesKnown && (
          <div className="flex flex-col">
            <label htmlFor="graph-from" className="font-medium text-slate-700">
              Path from (installed version)
            </label>
            <select
              id="graph-from"
              value={from ?? ''}
              onChange={(e) => {
                setSelected(e.target.value || undefined);
                setParam({ from: e.target.value || undefined });
              }}
              className="rounded border border-slate-300 bg-white px-2 py-1.5"
            >
              <option value="">None</option>
              {ordered.map((n) => (
                <option key={n.name} value={n.name}>
                  {n.version ?? n.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <form
          className="flex flex-col"
          onSubmit={(e) => {
            e.preventDefault();
            const t = search.trim();
            const shown = [g, ...otherGraphs].flatMap((x) => x.nodes);
            const hit =
              shown.find((n) => n.version === t || n.name === t) ??
              shown.find((n) => (n.version ?? n.name).includes(t));
            if (hit) choose(hit.name);
          }}
        >
          <label htmlFor="graph-search" className="font-medium text-slate-700">
            Find a version
          </label>
          <input
            id="graph-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="e.g. 3.14.0"
            className="w-40 rounded border border-slate-300 px-2 py-1.5"
          />
        </form>
        <div className="flex gap-1 pb-0.5">
          <button
            type="button"
            onClick={() => canvas.current?.fit()}
            className="rounded border border-slate-300 bg-white px-2 py-1"
          >
            Show all
          </button>
          <button
            type="button"
            onClick={() => canvas.current?.reset()}
            title="The newest versions and the installed one, at a readable size"
            className="rounded border border-slate-300 bg-white px-2 py-1"
          >
            Reset view
          </button>
          <button
            type="button"
            aria-label="Zoom in"
            onClick={() => canvas.current?.zoom(1.25)}
            className="rounded border border-slate-300 bg-white px-2 py-1"
          >
            +
          </button>
          <button
            type="button"
            aria-label="Zoom out"
            onClick={() => canvas.current?.zoom(0.8)}
            className="rounded border border-slate-300 bg-white px-2 py-1"
          >
            −
          </button>
        </div>
      </div>
      {g.edgesKnown && g.channels.length > 1 && (
        <fieldset className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
          <legend className="float-left mr-3 font-medium text-slate-700">Overlay channels</legend>
          {g.channels
            .filter((c) => c !== g.channel)
            .map((c) => (
              <label key={c} className="flex items-center gap-1">
                <input
                  type="checkbox"
                  checked={overlay.includes(c)}
                  onChange={(e) => chooseOverlay(e.target.checked ? [...overlay, c] : overlay.filter((o) => o !== c))}
                />
                {c}
              </label>
            ))}
          {others.some((o) => o.isFetching) && (
            <span role="status" className="text-slate-600">
              Loading…
            </span>
          )}
          {others.map(
            (o, i) =>
              o.error && (
                <ErrorNotice key={overlay[i]} error={o.error} what={`Channel ${overlay[i]} could not be loaded`} />
              ),
          )}
        </fieldset>
      )}
      {installed && namespace && <InstalledNote namespace={namespace} csv={installed} />}

      {!g.edgesKnown && (
        <Warning title="Edges unknown">
          {g.note ?? 'This catalog is read through PackageManifests, which carry no upgrade edges.'} The versions are
          shown in order; no edges are drawn.
        </Warning>
      )}
      {g.deprecation && <Warning title={`Channel ${g.channel} is deprecated`}>{g.deprecation}</Warning>}
      {g.problems.map((p) => (
        <Warning key={p} title="Problem in this channel">
          {p}
        </Warning>
      ))}
      {g.path && (
        <p role="status" className="rounded border border-sky-200 bg-sky-50 px-3 py-2 text-sm">
          {g.path.steps.length === 0
            ? `${g.path.from} is the head: there is nothing to upgrade to.`
            : `From ${g.path.from}, OLM makes ${g.path.steps.length} InstallPlan${g.path.steps.length === 1 ? '' : 's'}: ${g.path.steps.map((s) => s.to).join(' → ')}; the next one installs ${g.path.steps[0]!.to}.`}
          {!g.path.reachesHead &&
            ` It stops at ${g.path.end}${g.path.error ? `: ${g.path.error}` : ''}; the head ${g.head ?? ''} is out of reach from there.`}
        </p>
      )}

      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="min-w-0 space-y-2">
          <ChannelSummary id="graph-summary" graphs={[g, ...otherGraphs]} installed={installed} from={g.path?.from} />
          <HiddenEdgesNote
            counts={counts}
            hidden={hidden}
            withPath={(g.path?.steps.length ?? 0) > 0}
            onShowAll={() => setHidden([])}
          />
          <GraphCanvas
            ref={canvas}
            drawing={drawn!}
            hidden={hidden}
            selected={selected}
            onSelect={setSelected}
            focus={[installed, g.path?.from]}
            describedBy="graph-summary"
            label={`Upgrade graph of ${[g.channel, ...otherGraphs.map((o) => o.channel)].join(', ')}: use the arrow keys to move between versions`}
          />
          <GraphLegend
            counts={drawn?.legend ? undefined : g.edgeCounts}
            channels={drawn?.legend}
            withInstalled={!!installed}
            hidden={hidden}
            onToggle={(k) => setHidden(hidden.includes(k) ? hidden.filter((h) => h !== k) : [...hidden, k])}
          />
        </div>
        <aside aria-label="Selected version" className="space-y-2 rounded border border-slate-200 bg-white p-3 text-sm">
          {!node ? (
            <p className="text-slate-600">
              Click a version, or focus the graph and use the arrow keys, to see its facts.
            </p>
          ) : (
            <>
              <h2 className="text-base font-semibold">{node.version ?? node.name}</h2>
              <dl className="space-y-1">
                <div>
                  <dt className="inline text-slate-600">CSV: </dt>
                  <dd className="inline [overflow-wrap:anywhere]">{node.name}</dd>
                </div>
                {facts.data?.selected.csv?.createdAt && (
                  <div>
                    <dt className="inline text-slate-600">Created: </dt>
                    <dd className="inline">{facts.data.selected.csv.createdAt}</dd>
                  </div>
                )}
                {node.replaces && (
                  <div>
                    <dt className="inline text-slate-600">Replaces: </dt>
                    <dd className="inline">{node.replaces}</dd>
                  </div>
                )}
                {node.skips.length > 0 && (
                  <div>
                    <dt className="inline text-slate-600">Skips: </dt>
                    <dd className="inline">{node.skips.join(', ')}</dd>
                  </div>
                )}
                {node.skipRange && (
                  <div>
                    <dt className="inline text-slate-600">skipRange: </dt>
                    <dd className="inline">
                      {node.skipRange}
                      {node.skipRangeError ? ` (invalid: ${node.skipRangeError})` : ''}
                    </dd>
                  </div>
                )}
                {node.coveredBySkipRangeOf.length > 0 && (
                  <div>
                    <dt className="inline text-slate-600">Pruned by the skipRange of: </dt>
                    <dd className="inline">{node.coveredBySkipRangeOf.join(', ')}</dd>
                  </div>
                )}
                <div>
                  <dt className="inline text-slate-600">Channels: </dt>
                  <dd className="inline">{node.channels.join(', ')}</dd>
                </div>
              </dl>
              {[g, ...otherGraphs]
                .filter((x) => x.head === node.name)
                .map((x) => (
                  <p key={x.channel} className="font-medium text-emerald-800">
                    Head of {x.channel}.
                  </p>
                ))}
              {node.neverTarget && (
                <p className="text-amber-900">
                  Never an upgrade target{otherGraphs.length > 0 ? ` in ${home!.channel}` : ''}: {node.neverTarget}
                </p>
              )}
              {(node.deprecation || node.legacyDeprecated) && (
                <p className="text-amber-900">
                  Deprecated{node.deprecation ? `: ${node.deprecation}` : ' (olm.deprecated): OLM never installs it'}
                </p>
              )}
              <div className="flex flex-wrap gap-3 pt-1">
                <Link className="text-sky-700 underline" href={installHref(node.name, home!.channel)}>
                  Install this version
                </Link>
                {g.edgesKnown && home === g && (
                  <button
                    type="button"
                    className="text-sky-700 underline"
                    onClick={() => setParam({ from: node.name })}
                  >
                    Path from here
                  </button>
                )}
              </div>
            </>
          )}
        </aside>
      </div>

      <details className="text-sm" open={false}>
        <summary className="cursor-pointer text-sky-700">The same graph as a list</summary>
        <div className="mt-2">
          <StackedTable label={`Versions of ${g.channel}`} columns={['Version', 'Upgrades from', 'Notes', 'Path step']}>
            {ordered.map((n) => (
              <StackedRow key={n.name}>
                <StackedCell label="Version">
                  <button type="button" className="text-sky-700 underline" onClick={() => choose(n.name)}>
                    {n.version ?? n.name}
                  </button>
                </StackedCell>
                <StackedCell label="Upgrades from">
                  {[
                    n.replaces && `replaces ${n.replaces}`,
                    n.skips.length > 0 && `skips ${n.skips.join(', ')}`,
                    n.skipRange && `skipRange ${n.skipRange}`,
                  ]
                    .filter(Boolean)
                    .join('; ') || '—'}
                </StackedCell>
                <StackedCell label="Notes">
                  {[
                    n.isHead && 'head',
                    n.neverTarget && `never an upgrade target: ${n.neverTarget}`,
                    n.deprecation && `deprecated: ${n.deprecation}`,
                  ]
                    .filter(Boolean)
                    .join('; ')}
                </StackedCell>
                <StackedCell label="Path step">
                  {g.path?.from === n.name ? 'start' : step.get(n.name) ? `step ${step.get(n.name)}` : ''}
                </StackedCell>
              </StackedRow>
            ))}
          </StackedTable>
        </div>
      </details>
    </article>
  );
}
