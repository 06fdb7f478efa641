// Where the graph viewer draws each bundle of a channel: along one axis by version (oldest on the
// left), bundles OLM never upgrades to on a lane of their own below, so the path a cluster can
// walk reads left to right on one line. Pure, so it is tested here and timed in bench/.
import { compareVersions, tryParseVersionTolerant } from '../olm/semver/version';
import type { GraphViewNode } from './catalog-types';

export interface Point {
  x: number;
  y: number;
}

export interface LayoutOptions {
  /** Distance between neighbouring versions. */
  gapX?: number;
  /** Distance between the main line and the never-a-target lane. */
  laneY?: number;
}

/** Bundles in version order, oldest first; without a version, after the versioned ones by name. */
export function byVersion(nodes: readonly GraphViewNode[]): GraphViewNode[] {
  const parsed = new Map(nodes.map((n) => [n.name, tryParseVersionTolerant(n.version)]));
  return [...nodes].sort((a, b) => {
    const va = parsed.get(a.name);
    const vb = parsed.get(b.name);
    if (va && vb) return compareVersions(va, vb) || a.name.localeCompare(b.name);
    if (va) return -1;
    if (vb) return 1;
    return a.name.localeCompare(b.name);
  });
}

export function layoutChannel(nodes: readonly GraphViewNode[], opts: LayoutOptions = {}): Map<string, Point> {
  const gapX = opts.gapX ?? 120;
  const laneY = opts.laneY ?? 110;
  const out = new Map<string, Point>();
  byVersion(nodes).forEach((n, i) => out.set(n.name, { x: i * gapX, y: n.neverTarget ? laneY : 0 }));
  return out;
}
