'use client';
// Cytoscape drawing what lib/hub/graph-drawing decided: bundles along the version axis, edges by
// kind (replaces straight, skips arched above, skipRange arched below; in an overlay, coloured by
// channel), the head, deprecated, never-target and installed bundles marked, the chosen path
// highlighted. Cytoscape is loaded only in the browser. Arrow keys move between versions.
// The first view is lib/hub/graph-viewport's: the whole channel when its labels can be read so,
// else the newest versions and the installed one at a readable zoom, with an overview of the rest
// beneath. The head, the installed, the path's start and the selected bundle keep a readable
// label at any zoom. Edge kinds the person hides are not given to Cytoscape at all, so they cost
// nothing to draw. "Show all" widens the canvas inside a box that scrolls sideways (show-all.ts)
// rather than shrinking a long channel to a line.
import type { Core, ElementDefinition, NodeCollection } from 'cytoscape';
import { forwardRef, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState } from 'react';
import type { DrawEdge, DrawNode, Drawing } from '@/lib/hub/graph-drawing';
import { firstView, LABEL_FONT, visibleRange, type Viewport } from '@/lib/hub/graph-viewport';
import type { EdgeKind } from '@/lib/olm/graph/channel-graph';
import { GraphOverview } from './graph-overview';
import { PINNED, STYLE } from './graph-style';
import { showAll, type WideView } from './show-all';

export interface GraphCanvasHandle {
  /** Every version, at a size where they stay apart: wider than the box, it scrolls. */
  fit(): void;
  /** Back to the first view. */
  reset(): void;
  zoom(by: number): void;
  focus(name: string): void;
}

/** The smallest, in screen pixels, the labels of the head, installed and selected bundles get. */
const PINNED_LABEL_PX = 12;

/** An edge of a hidden kind is left out, unless it is a step of the path shown. */
const drawn = (e: DrawEdge, hidden: readonly EdgeKind[]) => !hidden.includes(e.kind) || e.classes.includes('on-path');

function edgeElement(e: DrawEdge): ElementDefinition {
  return {
    group: 'edges',
    data: {
      id: e.id,
      source: e.from,
      target: e.to,
      kind: e.kind,
      lift: e.lift,
      ...(e.color ? { color: e.color } : {}),
    },
    classes: e.classes.join(' '),
  };
}

const nodeElement = (n: DrawNode): ElementDefinition => ({
  group: 'nodes',
  data: { id: n.id, label: n.label },
  position: { x: n.x, y: n.y },
  classes: n.classes.join(' '),
});

/** The bundles `keep` names (all without it) and the drawn edges between them. */
function elements(d: Drawing, hidden: readonly EdgeKind[], keep?: (n: DrawNode) => boolean): ElementDefinition[] {
  const nodes = keep ? d.nodes.filter(keep) : d.nodes;
  const ids = new Set(nodes.map((n) => n.id));
  return [
    ...nodes.map(nodeElement),
    ...d.edges.filter((e) => drawn(e, hidden) && ids.has(e.from) && ids.has(e.to)).map(edgeElement),
  ];
}

/** Bundles this side of the first view's edges by one more view's width: the ones drawn first. */
function nearView(first: Viewport, width: number): (n: DrawNode) => boolean {
  const r = visibleRange(first, width);
  const w = r.x2 - r.x1;
  return (n) => n.x >= r.x1 - w && n.x <= r.x2 + w;
}

/** Bundles given to Cytoscape per task once the first frame is up: each task stays short. */
const CHUNK = 50;

/** Cytoscape's edges made to match `hidden`, without rebuilding the graph or moving the view. */
function syncEdges(c: Core, d: Drawing, hidden: readonly EdgeKind[]): void {
  c.batch(() => {
    const add: ElementDefinition[] = [];
    for (const e of d.edges) {
      const has = c.getElementById(e.id).nonempty();
      // An edge to a bundle not given to Cytoscape yet comes with the rest of the bundles.
      const ends = c.getElementById(e.from).nonempty() && c.getElementById(e.to).nonempty();
      if (drawn(e, hidden) && !has && ends) add.push(edgeElement(e));
      else if (!drawn(e, hidden) && has) c.getElementById(e.id).remove();
    }
    if (add.length) c.add(add);
  });
}

/**
 * The pinned bundles' labels grow as the graph zooms out, so they stay readable (the others fade
 * under Cytoscape's min-zoomed-font-size): a style bypass on a handful of nodes.
 */
function pinLabels(c: Core, held: { current: NodeCollection | undefined }): void {
  const now = c.nodes(PINNED);
  if (held.current) held.current.difference(now).removeStyle('font-size');
  now.style('font-size', Math.max(LABEL_FONT, PINNED_LABEL_PX / c.zoom()));
  held.current = now;
}

function apply(c: Core, v: Viewport): void {
  c.viewport({ zoom: Math.max(c.minZoom(), Math.min(c.maxZoom(), v.zoom)), pan: v.pan });
}

interface Props {
  drawing: Drawing;
  selected?: string;
  onSelect: (name: string) => void;
  label: string;
  /** The id of text that describes the graph (the channel, its size, its head). */
  describedBy?: string;
  /** Bundles the first view shows when it can (installed, path start); read when the drawing changes. */
  focus?: (string | undefined)[];
  /** Tailwind height class; the full viewer is taller than the one embedded in a tab. */
  height?: string;
  /** Edge kinds not drawn (the path's own steps are drawn all the same). */
  hidden?: readonly EdgeKind[];
}

type Shown = { x1: number; x2: number; partial: boolean };

export const GraphCanvas = forwardRef<GraphCanvasHandle, Props>(function GraphCanvas(
  { drawing, selected, onSelect, label, describedBy, focus, height = 'h-[28rem]', hidden = [] },
  ref,
) {
  const box = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | undefined>(undefined);
  const onSelectRef = useRef(onSelect);
  const focusRef = useRef(focus);
  const selectedRef = useRef(selected);
  const hiddenRef = useRef(hidden);
  const drawingRef = useRef(drawing);
  const pinned = useRef<NodeCollection | undefined>(undefined);
  // What the overview draws: the model-space x range in view, and whether there is more outside.
  const [view, setView] = useState<Shown | undefined>();
  // Show all's wide canvas, while it is shown; the box scrolls across it.
  const [wide, setWide] = useState<WideView | undefined>();
  const wideRef = useRef(wide);
  // Set with `wide`: what to do once the canvas has its new width (where to look, where to scroll).
  const afterResize = useRef<((c: Core) => void) | undefined>(undefined);
  // The canvas width the first view was last fitted to, and whether it showed every version.
  const fittedWidth = useRef(0);
  const firstAll = useRef(true);
  const report = useRef<() => void>(() => {});
  useEffect(() => {
    onSelectRef.current = onSelect;
    focusRef.current = focus;
    selectedRef.current = selected;
    hiddenRef.current = hidden;
    drawingRef.current = drawing;
  });
  const hiddenKey = hidden.join();

  useEffect(() => {
    let alive = true;
    let watch: ResizeObserver | undefined;
    void import('cytoscape').then(({ default: cytoscape }) => {
      if (!alive || !box.current) return;
      const el = box.current;
      const t0 = performance.now();
      // A long channel's first view shows a few dozen of its hundreds of bundles, and Cytoscape's
      // cost is per element (its style, its label measured): the bundles near the view go first,
      // the rest once the first frame is painted (see `more` below).
      const first = firstView(drawing, el.clientWidth, el.clientHeight, [
        ...(focusRef.current ?? []),
        selectedRef.current,
      ]);
      const near = first.all ? undefined : nearView(first, el.clientWidth);
      const c = cytoscape({
        container: el,
        elements: elements(drawing, hiddenRef.current, near),
        style: STYLE as never,
        layout: { name: 'preset' },
        minZoom: 0.05,
        maxZoom: 3,
        wheelSensitivity: 0.3,
        boxSelectionEnabled: false,
        autoungrabify: true,
      });
      if (selectedRef.current) c.getElementById(selectedRef.current).select();
      apply(c, first);
      firstAll.current = first.all;
      pinLabels(c, pinned);
      let frame = 0;
      report.current = () => {
        frame = 0;
        const s = scroller.current;
        if (!alive || !s) return;
        const v = { zoom: c.zoom(), pan: c.pan() };
        if (wideRef.current) {
          // The part of the wide canvas the box has scrolled to.
          const r = visibleRange({ ...v, pan: { x: v.pan.x - s.scrollLeft, y: v.pan.y } }, s.clientWidth);
          setView({ ...r, partial: wideRef.current.width > s.clientWidth + 1 });
        } else setView({ ...visibleRange(v, c.width()), partial: !firstAll.current });
      };
      const later = () => {
        if (!frame) frame = requestAnimationFrame(() => report.current());
      };
      c.on('viewport', () => {
        pinLabels(c, pinned);
        later();
      });
      scroller.current?.addEventListener('scroll', later, { passive: true });
      report.current();
      c.on('tap', 'node', (e) => onSelectRef.current(e.target.id()));
      cy.current = c;
      // A new width (a phone turned, a window resized) would leave the first view cut off or lost in
      // space: Cytoscape is told its size, and the first view is shown again at it. Show all's
      // canvas has a width of its own and is left as it is.
      fittedWidth.current = c.width();
      watch = new ResizeObserver(() => {
        c.resize();
        if (!alive || wideRef.current || Math.abs(c.width() - fittedWidth.current) < 40) return;
        fittedWidth.current = c.width();
        const again = firstView(drawing, c.width(), c.height(), [...(focusRef.current ?? []), selectedRef.current]);
        // Whether the overview is needed changes with the width too (a phone fits fewer versions).
        firstAll.current = again.all;
        apply(c, again);
      });
      watch.observe(box.current);
      // For bench/graph-browser.bench.ts: how long building, placing and fitting the first part took
      // in Cytoscape, until the frame after its first paint (it draws in an animation frame), and
      // until every bundle was in. data-ready says the whole drawing is in.
      el.dataset.layoutMs = String(Math.round(performance.now() - t0));
      const done = () => {
        if (selectedRef.current) c.getElementById(selectedRef.current).select();
        pinLabels(c, pinned);
        el.dataset.edges = String(c.edges().length);
        el.dataset.completeMs = String(Math.round(performance.now() - t0));
        el.dataset.ready = 'true';
      };
      const rest = near ? drawing.nodes.filter((n) => !near(n)) : [];
      const more = (from: number) => {
        if (!alive) return;
        if (from >= rest.length) {
          syncEdges(c, drawing, hiddenRef.current);
          return done();
        }
        c.add(rest.slice(from, from + CHUNK).map(nodeElement));
        setTimeout(() => more(from + CHUNK), 0);
      };
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          if (!alive) return;
          el.dataset.paintedMs = String(Math.round(performance.now() - t0));
          more(0);
        }),
      );
    });
    const s = scroller.current;
    return () => {
      alive = false;
      watch?.disconnect();
      s?.scrollTo({ left: 0 });
      report.current = () => {};
      pinned.current = undefined;
      cy.current?.destroy();
      cy.current = undefined;
      wideRef.current = undefined;
      setWide(undefined);
    };
  }, [drawing]);

  useEffect(() => {
    const c = cy.current;
    if (!c) return;
    syncEdges(c, drawing, hiddenRef.current);
    if (box.current) box.current.dataset.edges = String(c.edges().length);
  }, [hiddenKey, drawing]);

  useEffect(() => {
    const c = cy.current;
    if (!c) return;
    c.nodes().unselect();
    if (selected) c.getElementById(selected).select();
    pinLabels(c, pinned);
  }, [selected, drawing]);

  // The canvas has its new width (Show all, or back from it): Cytoscape is told, then looks where
  // it was asked to. Before paint, so the graph never shows at the old view on the new width.
  useLayoutEffect(() => {
    wideRef.current = wide;
    const c = cy.current;
    if (!c) return;
    c.resize();
    fittedWidth.current = c.width();
    c.userPanningEnabled(!wide);
    c.userZoomingEnabled(!wide);
    // Nothing asked for (a new drawing took the wide canvas away): the first view at the new width.
    const then =
      afterResize.current ??
      ((cc: Core) =>
        wide ||
        apply(
          cc,
          firstView(drawingRef.current, cc.width(), cc.height(), [...(focusRef.current ?? []), selectedRef.current]),
        ));
    afterResize.current = undefined;
    then(c);
    report.current();
  }, [wide]);

  /** The model x in the middle of what the person sees. */
  const centreX = (c: Core) => {
    const s = scroller.current;
    const middle = wideRef.current && s ? s.scrollLeft + s.clientWidth / 2 : c.width() / 2;
    return (middle - c.pan().x) / c.zoom();
  };
  const centreOn = (x: number) => {
    const c = cy.current;
    const s = scroller.current;
    if (!c) return;
    if (wideRef.current && s) s.scrollLeft = c.pan().x + c.zoom() * x - s.clientWidth / 2;
    else c.pan({ x: c.width() / 2 - c.zoom() * x, y: c.pan().y });
  };
  const bringIntoView = (name: string, duration: number) => {
    const c = cy.current;
    const n = c?.getElementById(name);
    if (!c || !n || n.empty()) return;
    const s = scroller.current;
    if (wideRef.current && s)
      s.scrollTo({ left: n.renderedPosition().x - s.clientWidth / 2, behavior: duration ? 'smooth' : 'auto' });
    else c.animate({ center: { eles: n }, duration });
  };
  /** Leave Show all's wide canvas (if shown), then set the view. */
  const narrow = (then: (c: Core) => void) => {
    const c = cy.current;
    if (!c) return;
    if (!wideRef.current) return then(c);
    afterResize.current = then;
    setWide(undefined);
  };

  useImperativeHandle(ref, () => ({
    fit: () => {
      const c = cy.current;
      const s = scroller.current;
      if (!c || !s) return;
      const x = centreX(c);
      const w = showAll(drawing, s.clientWidth, c.height());
      afterResize.current = (cc) => {
        apply(cc, w);
        // The stretch that was in the middle stays there.
        s.scrollLeft = cc.pan().x + cc.zoom() * x - s.clientWidth / 2;
      };
      setWide(w);
    },
    reset: () => narrow((c) => apply(c, firstView(drawing, c.width(), c.height(), [...(focus ?? []), selected]))),
    zoom: (by) => {
      const c = cy.current;
      if (!c) return;
      const x = centreX(c);
      narrow((cc) => {
        cc.zoom(cc.zoom() * by);
        cc.pan({ x: cc.width() / 2 - cc.zoom() * x, y: cc.pan().y });
      });
    },
    focus: (name) => bringIntoView(name, 200),
  }));

  const order = drawing.order;
  const onKey = (e: React.KeyboardEvent) => {
    if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight' && e.key !== 'Home' && e.key !== 'End') return;
    e.preventDefault();
    const i = selected ? order.indexOf(selected) : -1;
    const next =
      e.key === 'Home'
        ? 0
        : e.key === 'End'
          ? order.length - 1
          : e.key === 'ArrowLeft'
            ? Math.max(0, i - 1)
            : Math.min(order.length - 1, i + 1);
    const name = order[next];
    if (name) {
      onSelect(name);
      bringIntoView(name, 150);
    }
  };

  return (
    <div className="space-y-1">
      {/* Scrolls sideways only while Show all's canvas is wider than the box. */}
      <div ref={scroller} className="overflow-x-auto overflow-y-hidden rounded border border-slate-300">
        <div
          ref={box}
          role="application"
          aria-label={label}
          aria-describedby={describedBy}
          aria-roledescription="upgrade graph"
          tabIndex={0}
          onKeyDown={onKey}
          style={wide ? { width: `${wide.width}px` } : undefined}
          className={`${height} ${wide ? '' : 'w-full'} bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-sky-600`}
        />
      </div>
      {view?.partial && <GraphOverview drawing={drawing} view={view} selected={selected} onMove={centreOn} />}
    </div>
  );
});
