'use client';
// The upgrade graph of an installed operator's channel, embedded in its Subscription tab: the
// installed version marked, the path OLM will walk to the head highlighted; a click names a
// bundle and offers the path from there in the full viewer, which this links to.
import { useQuery } from '@tanstack/react-query';
import { ClusterLink as Link } from '@/lib/client/cluster';
import { useId, useMemo, useState } from 'react';
import { drawChannel } from '@/lib/hub/graph-drawing';
import type { EdgeKind } from '@/lib/olm/graph/channel-graph';
import { ErrorNotice } from '../common/notice';
import type { PackageRefProps } from '../details/package-details-view';
import { ChannelSummary } from './channel-summary';
import { startsHidden } from './edge-kinds';
import { GraphCanvas } from './graph-canvas';
import { GraphLegend } from './graph-legend';
import { graphQuery } from './graph-query';
import { HiddenEdgesNote } from './hidden-edges-note';

interface Props extends PackageRefProps {
  channel: string;
  /** The installed CSV: the path starts there and it is marked. */
  installed?: string;
  /** The operator's namespace: catalogs visible there, and the operator the full viewer opens for. */
  namespace: string;
}

export function ChannelGraphPanel({ channel, installed, namespace, ...pkg }: Props) {
  const graph = useQuery(graphQuery(pkg, channel, installed, namespace));
  const [selected, setSelected] = useState<string | undefined>();
  // The person's choice of edge kinds; until then, the default for the channel's counts.
  const [chosen, setChosen] = useState<EdgeKind[] | undefined>();
  const summaryId = useId();
  const g = graph.data;
  const drawing = useMemo(() => (g ? drawChannel(g, installed) : undefined), [g, installed]);
  const viewer = (from?: string) =>
    `/operatorhub/${encodeURIComponent(pkg.catalogNamespace)}/${encodeURIComponent(pkg.catalog)}/${encodeURIComponent(pkg.pkg)}/graph?${new URLSearchParams({ channel, namespace, ...(from ? { from } : {}), ...(installed ? { installed } : {}) })}`;

  if (graph.error) return <ErrorNotice error={graph.error} what={`The graph of ${channel} could not be loaded`} />;
  if (!g || !drawing)
    return (
      <p role="status" className="text-sm text-slate-600">
        Loading the graph of {channel}…
      </p>
    );
  const node = g.nodes.find((n) => n.name === selected);
  const hidden = chosen ?? startsHidden(g.edgeCounts);
  return (
    <figure className="space-y-2" aria-label={`Upgrade graph of ${channel}`}>
      {!g.edgesKnown && (
        <p className="text-sm text-amber-900">
          Edges unknown: {g.note ?? 'the catalog is read through PackageManifests'}. The versions are shown in order.
        </p>
      )}
      <ChannelSummary id={summaryId} graphs={[g]} installed={installed} />
      <HiddenEdgesNote
        counts={g.edgeCounts}
        hidden={hidden}
        withPath={(g.path?.steps.length ?? 0) > 0}
        onShowAll={() => setChosen([])}
      />
      <GraphCanvas
        drawing={drawing}
        selected={selected}
        onSelect={setSelected}
        focus={[installed]}
        describedBy={summaryId}
        height="h-72"
        hidden={hidden}
        label={`Upgrade graph of ${channel}, installed version marked: use the arrow keys to move between versions`}
      />
      <GraphLegend
        counts={g.edgeCounts}
        withInstalled={!!installed}
        hidden={hidden}
        onToggle={(k) => setChosen(hidden.includes(k) ? hidden.filter((h) => h !== k) : [...hidden, k])}
      />
      <figcaption className="flex flex-wrap gap-x-4 text-sm">
        {node ? (
          <span>
            <strong>{node.version ?? node.name}</strong>
            {node.isHead ? ' — head of the channel' : ''}
            {node.neverTarget ? ` — never an upgrade target: ${node.neverTarget}` : ''}
            {node.name === installed ? ' — installed' : ''}
            {' · '}
            <Link className="text-sky-700 underline" href={viewer(node.name)}>
              Path from {node.version ?? node.name}
            </Link>
          </span>
        ) : (
          <span className="text-slate-600">Click a version for its name; the full viewer has every fact.</span>
        )}
        <Link className="text-sky-700 underline" href={viewer(installed)}>
          Open in the graph viewer
        </Link>
      </figcaption>
    </figure>
  );
}
