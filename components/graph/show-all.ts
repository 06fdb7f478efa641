// "Show all" on a long channel. Fitting every version into the box shrinks an 82-version channel
// to a line of dots a few pixels high with no label drawn; instead the drawing stays at the zoom
// where labels can be read (graph-viewport's READABLE_ZOOM), and when that is wider than the box
// the canvas grows to its width and the box scrolls sideways. A canvas is memory (width × height
// × 4 bytes per layer, times the pixel ratio squared), so it never grows past MAX_WIDTH_PX: the
// longest channels (hundreds of versions) are drawn smaller than readable to stay within it, their
// head, installed and selected versions still labelled.
import { centre, READABLE_ZOOM, type Viewport } from '@/lib/hub/graph-viewport';
import { drawingBounds, type Drawing } from '@/lib/hub/graph-drawing';

export const MAX_WIDTH_PX = 12_000;
const PAD = 30;
/** Room for half a pinned label beyond the outer bundles. */
const LABEL_HALF = 50;
const MAX_ZOOM = 1.2;

export interface WideView extends Viewport {
  /** The canvas's width in CSS pixels: the box's own, or wider, to scroll. */
  width: number;
}

export function showAll(d: Drawing, boxWidth: number, height: number): WideView {
  const b = drawingBounds(d);
  const spanX = Math.max(1, b.x2 - b.x1);
  const edges = 2 * (PAD + LABEL_HALF);
  const fitWidth = (boxWidth - edges) / spanX;
  const fitHeight = (height - 2 * PAD) / Math.max(1, b.y2 - b.y1);
  let zoom = Math.min(MAX_ZOOM, fitHeight, Math.max(fitWidth, READABLE_ZOOM));
  let width = Math.max(boxWidth, Math.ceil(spanX * zoom + edges));
  if (width > MAX_WIDTH_PX) {
    width = MAX_WIDTH_PX;
    zoom = (MAX_WIDTH_PX - edges) / spanX;
  }
  return { ...centre(b, zoom, width, height), width };
}
