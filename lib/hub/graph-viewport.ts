// Where the graph viewer looks first, decided apart from Cytoscape so it can be tested. A long
// channel fitted whole is a thin line of dots whose labels are too small to read; so when the
// whole drawing does not fit at a zoom where labels are legible, the first view is the newest
// versions (the end people upgrade towards) plus the versions that matter to this person (the
// installed one, where a path starts), at a readable zoom. When those are too far apart for one
// readable view, the view starts at the installed version and runs towards the head as far as it
// can; the text above the canvas and the overview beneath it say the rest.
import { drawingBounds, type Bounds, type Drawing } from './graph-drawing';

/** The size of a label, in model units, on every node (graph-canvas uses the same). */
export const LABEL_FONT = 14;
/** The smallest a label may be drawn, in screen pixels, for the first view to count as readable. */
export const MIN_LABEL_PX = 10;
/** The zoom under which labels are too small to read. */
export const READABLE_ZOOM = MIN_LABEL_PX / LABEL_FONT;
/** A handful of versions is never blown up past this. */
export const MAX_FIRST_ZOOM = 1.2;
/** How many of the newest versions the first view tries to show. */
export const NEWEST = 10;
const PAD = 30;
/** Room kept left and right of the first view's outer bundles: half a label such as "installed" in bold. */
const LABEL_HALF = 50;
const PAD_X = 10;

export interface Viewport {
  zoom: number;
  pan: { x: number; y: number };
}

export interface FirstView extends Viewport {
  /** True when the whole drawing is in view (nothing for the overview to add). */
  all: boolean;
  /** Node ids inside the view, oldest first. */
  shown: string[];
}

/** The zoom and pan that put `b` in the middle of a `width`×`height` canvas at `zoom`. */
export function centre(b: Bounds, zoom: number, width: number, height: number): Viewport {
  return { zoom, pan: { x: width / 2 - (zoom * (b.x1 + b.x2)) / 2, y: height / 2 - (zoom * (b.y1 + b.y2)) / 2 } };
}

/** Fit the whole drawing, never blowing a handful of versions up past a readable size. */
export function fitAll(d: Drawing, width: number, height: number, minZoom = 0.05): Viewport {
  const b = drawingBounds(d);
  // Horizontally, room for half a pinned label (12 px text) beyond the outer bundles.
  const zoom = Math.min(
    MAX_FIRST_ZOOM,
    (width - 2 * PAD - 2 * LABEL_HALF) / Math.max(1, b.x2 - b.x1),
    (height - 2 * PAD) / Math.max(1, b.y2 - b.y1),
  );
  return centre(b, Math.max(minZoom, zoom), width, height);
}

/** The model-space x range a viewport shows on a canvas `width` wide. */
export function visibleRange(v: Viewport, width: number): { x1: number; x2: number } {
  return { x1: -v.pan.x / v.zoom, x2: (width - v.pan.x) / v.zoom };
}

/**
 * The first view of `d` on a `width`×`height` canvas. `focus` names the bundles that must be in
 * it when they can be (the installed one, where a path starts, the selected one); unknown names
 * are ignored.
 */
export function firstView(
  d: Drawing,
  width: number,
  height: number,
  focus: readonly (string | undefined)[] = [],
): FirstView {
  const whole = fitAll(d, width, height);
  const at = new Map(d.nodes.map((n) => [n.id, n]));
  if (d.nodes.length === 0 || whole.zoom >= READABLE_ZOOM)
    return { ...whole, all: true, shown: d.order.filter((id) => at.has(id)) };

  const margin = LABEL_HALF;
  const xs = [...new Set(d.nodes.map((n) => n.x))].sort((a, b) => a - b);
  const room = (width - 2 * PAD_X) / READABLE_ZOOM - 2 * margin; // model units one readable view spans
  const newestX = xs[Math.max(0, xs.length - NEWEST)]!;
  const lastX = xs.at(-1)!;
  const focusXs = focus.flatMap((f) => (f && at.has(f) ? [at.get(f)!.x] : []));
  const oldestFocus = focusXs.length ? Math.min(...focusXs) : undefined;

  let x1: number;
  let x2: number;
  const wanted = Math.min(newestX, oldestFocus ?? newestX);
  if (lastX - wanted <= room) {
    // The newest versions, and the focus too when it is among them or close enough.
    [x1, x2] = [wanted, lastX];
  } else if (oldestFocus === undefined || lastX - oldestFocus <= room) {
    // Even the newest do not all fit readably: as many of the newest as do.
    [x1, x2] = [lastX - room, lastX];
  } else {
    // The focus is far from the head: start there and go towards the head as far as is readable.
    [x1, x2] = [oldestFocus, oldestFocus + room];
  }
  const inView = (x: number) => x >= x1 - 0.5 && x <= x2 + 0.5;
  const all = drawingBounds(d);
  const wide = { x1: x1 - margin, x2: x2 + margin };
  // Never under READABLE_ZOOM, not even by a rounding error: the window was cut to fit at it.
  const zoom = Math.max(
    READABLE_ZOOM,
    Math.min(
      MAX_FIRST_ZOOM,
      (width - 2 * PAD_X) / Math.max(1, wide.x2 - wide.x1),
      (height - 2 * PAD) / Math.max(1, all.y2 - all.y1),
    ),
  );
  // Arcs taller than the canvas at a readable zoom are cut; the bundles and their labels are not.
  const tall = (all.y2 - all.y1) * zoom > height - 2 * PAD;
  const ys = d.nodes.map((n) => n.y);
  const v = centre(
    { ...wide, ...(tall ? { y1: Math.min(...ys) - 14 - 40, y2: Math.max(...ys) + 14 } : { y1: all.y1, y2: all.y2 }) },
    zoom,
    width,
    height,
  );
  return { ...v, all: false, shown: d.order.filter((id) => at.has(id) && inView(at.get(id)!.x)) };
}
