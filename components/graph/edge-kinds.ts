// Which edge kinds the graph draws. A long channel's skips and skipRange edges (hundreds in some
// published catalogs) cover the replaces line and every version label in arcs, and drawing them
// is most of what the first frame costs; so past MANY_SKIP_EDGES they start hidden, and the
// person shows them from the legend. What the person chose travels in the URL as the kinds shown.
import type { EdgeKind } from '@/lib/olm/graph/channel-graph';

export const EDGE_KINDS: readonly EdgeKind[] = ['replaces', 'skips', 'skipRange'];
const SKIP_KINDS: readonly EdgeKind[] = ['skips', 'skipRange'];
/** More skip edges than this and the picture stops being readable: they start hidden. */
export const MANY_SKIP_EDGES = 50;

export type EdgeCounts = Record<EdgeKind, number>;

export function skipEdges(counts: EdgeCounts): number {
  return counts.skips + counts.skipRange;
}

/** The kinds hidden when the person has not chosen: the skip kinds, once there are too many. */
export function startsHidden(counts: EdgeCounts): EdgeKind[] {
  return skipEdges(counts) > MANY_SKIP_EDGES ? SKIP_KINDS.filter((k) => counts[k] > 0) : [];
}

/**
 * The kinds hidden, from the URL's `edges` (the kinds the person chose to show, comma-separated;
 * `none` for none) or, without it, the default for these counts. Unknown words are ignored.
 */
export function hiddenKinds(shownParam: string | null | undefined, counts: EdgeCounts): EdgeKind[] {
  if (shownParam === null || shownParam === undefined) return startsHidden(counts);
  const shown = new Set(shownParam.split(','));
  return EDGE_KINDS.filter((k) => !shown.has(k));
}

/** The URL value for these hidden kinds. */
export function shownParam(hidden: readonly EdgeKind[]): string {
  return EDGE_KINDS.filter((k) => !hidden.includes(k)).join(',') || 'none';
}

/** Several channels overlaid: their counts added up. */
export function addCounts(all: readonly EdgeCounts[]): EdgeCounts {
  const sum: EdgeCounts = { replaces: 0, skips: 0, skipRange: 0 };
  for (const c of all) for (const k of EDGE_KINDS) sum[k] += c[k];
  return sum;
}
