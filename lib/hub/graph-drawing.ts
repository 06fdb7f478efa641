// What the graph viewer draws, decided apart from Cytoscape so it can be tested: one channel, or
// several channels overlaid (each its own colour, a bundle in more than one channel drawn once),
// each bundle placed by graph-layout and marked (head, deprecated, never a target, installed, on
// the path), each edge with its kind, its arc and whether it is a step of the path OLM walks.
import type { EdgeKind } from '../olm/graph/channel-graph';
import type { GraphView, GraphViewNode } from './catalog-types';
import { byVersion, layoutChannel } from './graph-layout';

export interface DrawNode {
  id: string;
  label: string;
  x: number;
  y: number;
  classes: string[];
}

export interface DrawEdge {
  id: string;
  from: string;
  to: string;
  kind: EdgeKind;
  /** Signed distance of the arc's middle from the straight line: skips above, skipRange below. */
  lift: number;
  /** The channel's colour, when several channels are overlaid. */
  color?: string;
  classes: string[];
}

export interface Drawing {
  nodes: DrawNode[];
  edges: DrawEdge[];
  /** Bundle names oldest first, for moving between them with the keyboard. */
  order: string[];
}

export interface OverlayLegend {
  channel: string;
  color: string;
  edges: number;
}

/** Distinct on white, none of them the path's blue or the head's green. */
export const CHANNEL_COLOURS = ['#334155', '#c2410c', '#7c3aed', '#be185d', '#4d7c0f', '#a16207'] as const;

function lift(kind: EdgeKind, span: number, lane = 0): number {
  // Arcs grow with the distance they span, so long skips clear the bundles in between; in an
  // overlay each channel gets its own lane so the same edge in two channels stays visible twice.
  if (kind === 'replaces') return lane * 14;
  const size = Math.min(40 + span * 0.25, 260) + lane * 14;
  return kind === 'skips' ? -size : size;
}

function nodeClasses(n: GraphViewNode, extra: { onPath: boolean; start: boolean; installed: boolean }): string[] {
  return [
    n.isHead && 'head',
    (n.deprecation || n.legacyDeprecated) && 'deprecated',
    n.neverTarget && 'never',
    extra.onPath && 'on-path',
    extra.start && 'start',
    extra.installed && 'installed',
  ].filter((c): c is string => typeof c === 'string');
}

/**
 * A bundle's label: its version, and on a second line in words whether it is the head or the
 * installed one (two short lines stay narrower than the gap between versions).
 */
function label(n: GraphViewNode, installed?: string): string {
  const notes = [n.isHead && 'head', n.name === installed && 'installed'].filter(Boolean);
  return `${n.version ?? n.name}${notes.length ? `\n${notes.join(', ')}` : ''}`;
}

/** One channel, with the path OLM walks from `g.path.from` highlighted and the other edges dimmed. */
export function drawChannel(g: GraphView, installed?: string): Drawing {
  const pos = layoutChannel(g.nodes);
  const x = (name: string) => pos.get(name)?.x ?? 0;
  const steps = new Set((g.path?.steps ?? []).map((s) => `${s.from}>${s.to}`));
  const pathNodes = new Set((g.path?.steps ?? []).flatMap((s) => [s.from, s.to]));
  if (g.path) pathNodes.add(g.path.from);
  return {
    nodes: g.nodes.map((n) => ({
      id: n.name,
      label: label(n, installed),
      ...(pos.get(n.name) ?? { x: 0, y: 0 }),
      classes: nodeClasses(n, {
        onPath: pathNodes.has(n.name),
        start: g.path?.from === n.name,
        installed: n.name === installed,
      }),
    })),
    edges: g.edges.map((e) => ({
      id: `${e.kind}:${e.from}>${e.to}`,
      from: e.from,
      to: e.to,
      kind: e.kind,
      lift: lift(e.kind, Math.abs(x(e.to) - x(e.from))),
      classes: [e.kind, steps.has(`${e.from}>${e.to}`) ? 'on-path' : steps.size > 0 ? 'dim' : ''].filter(Boolean),
    })),
    order: byVersion(g.nodes).map((n) => n.name),
  };
}

/**
 * Several channels of one package on one axis. A bundle is the head if it heads any of them, and
 * goes on the never-a-target lane only when no shown channel can upgrade to it; its deprecation
 * is the package's, so any channel's word for it holds. The first channel's path, if any, is
 * highlighted on that channel's edges.
 */
export function overlayChannels(
  graphs: readonly GraphView[],
  installed?: string,
): Drawing & { legend: OverlayLegend[] } {
  const merged = new Map<string, GraphViewNode>();
  const targetSomewhere = new Set<string>();
  for (const g of graphs) {
    for (const n of g.nodes) {
      if (!n.neverTarget) targetSomewhere.add(n.name);
      const seen = merged.get(n.name);
      merged.set(
        n.name,
        seen ? { ...seen, isHead: seen.isHead || n.isHead, deprecation: seen.deprecation ?? n.deprecation } : { ...n },
      );
    }
  }
  const nodes = [...merged.values()].map((n) => (targetSomewhere.has(n.name) ? { ...n, neverTarget: undefined } : n));
  const pos = layoutChannel(nodes);
  const x = (name: string) => pos.get(name)?.x ?? 0;
  const primary = graphs[0];
  const steps = new Set((primary?.path?.steps ?? []).map((s) => `${s.from}>${s.to}`));
  const pathNodes = new Set((primary?.path?.steps ?? []).flatMap((s) => [s.from, s.to]));
  if (primary?.path) pathNodes.add(primary.path.from);
  const edges: DrawEdge[] = graphs.flatMap((g, i) => {
    const color = CHANNEL_COLOURS[i % CHANNEL_COLOURS.length]!;
    return g.edges.map((e) => ({
      id: `${g.channel}:${e.kind}:${e.from}>${e.to}`,
      from: e.from,
      to: e.to,
      kind: e.kind,
      lift: lift(e.kind, Math.abs(x(e.to) - x(e.from)), i),
      color,
      classes: [
        e.kind,
        'overlay',
        i === 0 && steps.has(`${e.from}>${e.to}`) ? 'on-path' : steps.size > 0 ? 'dim' : '',
      ].filter(Boolean),
    }));
  });
  return {
    nodes: nodes.map((n) => ({
      id: n.name,
      label: label(n, installed),
      ...(pos.get(n.name) ?? { x: 0, y: 0 }),
      classes: nodeClasses(n, {
        onPath: pathNodes.has(n.name),
        start: primary?.path?.from === n.name,
        installed: n.name === installed,
      }),
    })),
    edges,
    order: byVersion(nodes).map((n) => n.name),
    legend: graphs.map((g, i) => ({
      channel: g.channel,
      color: CHANNEL_COLOURS[i % CHANNEL_COLOURS.length]!,
      edges: g.edges.length,
    })),
  };
}

export interface Bounds {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/**
 * The box the drawing fills, arcs and labels included, from positions alone: asking Cytoscape
 * for it measures every edge's curve, a tenth of the time a large channel takes to show.
 */
export function drawingBounds(d: Drawing, margin = { node: 14, label: 40 }): Bounds {
  if (d.nodes.length === 0) return { x1: 0, y1: 0, x2: 0, y2: 0 };
  const at = new Map(d.nodes.map((n) => [n.id, n]));
  let x1 = Infinity;
  let x2 = -Infinity;
  let y1 = Infinity;
  let y2 = -Infinity;
  for (const n of d.nodes) {
    x1 = Math.min(x1, n.x - margin.node);
    x2 = Math.max(x2, n.x + margin.node);
    y1 = Math.min(y1, n.y - margin.node - margin.label);
    y2 = Math.max(y2, n.y + margin.node);
  }
  for (const e of d.edges) {
    const a = at.get(e.from);
    const b = at.get(e.to);
    if (!a || !b || e.lift === 0) continue;
    // A curve with one control point `lift` away from the chord's middle peaks half as far out;
    // the chord is near horizontal, so the peak is that far above (negative) or below it.
    const mid = (a.y + b.y) / 2 + e.lift / 2;
    y1 = Math.min(y1, mid - 2);
    y2 = Math.max(y2, mid + 2);
  }
  return { x1, y1, x2, y2 };
}
