// Says which edges the graph leaves out and how to bring them back, so a channel drawn without
// its skip edges is never mistaken for one that has none.
import type { EdgeKind } from '@/lib/olm/graph/channel-graph';
import { MANY_SKIP_EDGES, skipEdges, startsHidden, type EdgeCounts } from './edge-kinds';

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

export function HiddenEdgesNote({
  counts,
  hidden,
  withPath,
  onShowAll,
}: {
  counts: EdgeCounts;
  hidden: readonly EdgeKind[];
  /** A path is drawn: its steps stay drawn whatever kind they are. */
  withPath?: boolean;
  onShowAll: () => void;
}) {
  const left = hidden.filter((k) => counts[k] > 0);
  if (left.length === 0) return null;
  const total = left.reduce((n, k) => n + counts[k], 0);
  const byDefault =
    skipEdges(counts) > MANY_SKIP_EDGES && left.join() === startsHidden(counts).join()
      ? ` to keep a channel with more than ${MANY_SKIP_EDGES} skip edges readable`
      : '';
  return (
    <p className="flex flex-wrap items-center gap-x-2 gap-y-1 rounded border border-slate-200 bg-slate-50 px-3 py-2 text-sm text-slate-800">
      <span>
        {left.length === 1
          ? `${counts[left[0]!].toLocaleString('en')} ${left[0]} edge${total === 1 ? '' : 's'} hidden`
          : `${plural(total, 'edge')} hidden (${left.map((k) => `${counts[k].toLocaleString('en')} ${k}`).join(', ')})`}
        {byDefault}.{withPath ? ' The steps of the path are drawn all the same.' : ''} Each kind in the legend below
        shows or hides its edges.
      </span>
      <button
        type="button"
        onClick={onShowAll}
        className="rounded border border-slate-300 bg-white px-2 py-0.5 text-sky-800 underline"
      >
        Show every edge
      </button>
    </p>
  );
}
