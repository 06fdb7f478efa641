'use client';
// Cytoscape drawing what lib/hub/graph-drawing decided: bundles along the version axis, edges by
// kind (replaces straight, skips arched above, skipRange arched below; in an overlay, coloured by
// channel), the head, deprecated, never-target and installed bundles marked, the chosen path
// highlighted. Cytoscape is loaded only in the browser. Arrow keys move between versions.
// The first view is lib/hub/graph-viewport's: the whole channel when its labels can be read so,
// else the newest versions and the installed one at a readable zoom, with an overview of the rest
// beneath. The head, the installed, the path's start and the selected bundle keep a readable
// label at any zoom.
import type { Core, ElementDefinition, NodeCollection } from 'cytoscape';
import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { Drawing } from '@/lib/hub/graph-drawing';
import { firstView, fitAll, LABEL_FONT, visibleRange, type Viewport } from '@/lib/hub/graph-viewport';
import { GraphOverview } from './graph-overview';
import { PINNED, STYLE } from './graph-style';

export interface GraphCanvasHandle {
  /** Every version in view. */
  fit(): void;
  /** Back to the first view. */
  reset(): void;
  zoom(by: number): void;
  focus(name: string): void;
}

/** The smallest, in screen pixels, the labels of the head, installed and selected bundles get. */
const PINNED_LABEL_PX = 12;

function elements(d: Drawing): ElementDefinition[] {
  return [
    ...d.nodes.map((n): ElementDefinition => ({
      group: 'nodes',
      data: { id: n.id, label: n.label },
      position: { x: n.x, y: n.y },
      classes: n.classes.join(' '),
    })),
    ...d.edges.map((e): ElementDefinition => ({
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
    })),
  ];
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
}

export const GraphCanvas = forwardRef<GraphCanvasHandle, Props>(function GraphCanvas(
  { drawing, selected, onSelect, label, describedBy, focus, height = 'h-[28rem]' },
  ref,
) {
  const box = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | undefined>(undefined);
  const onSelectRef = useRef(onSelect);
  const focusRef = useRef(focus);
  const selectedRef = useRef(selected);
  const pinned = useRef<NodeCollection | undefined>(undefined);
  // What the overview draws: the model-space x range in view, and whether there is more outside.
  const [view, setView] = useState<{ x1: number; x2: number; partial: boolean } | undefined>();
  useEffect(() => {
    onSelectRef.current = onSelect;
    focusRef.current = focus;
    selectedRef.current = selected;
  });

  useEffect(() => {
    let alive = true;
    let watch: ResizeObserver | undefined;
    void import('cytoscape').then(({ default: cytoscape }) => {
      if (!alive || !box.current) return;
      const t0 = performance.now();
      const c = cytoscape({
        container: box.current,
        elements: elements(drawing),
        style: STYLE as never,
        layout: { name: 'preset' },
        minZoom: 0.05,
        maxZoom: 3,
        wheelSensitivity: 0.3,
        boxSelectionEnabled: false,
        autoungrabify: true,
      });
      if (selectedRef.current) c.getElementById(selectedRef.current).select();
      const first = firstView(drawing, c.width(), c.height(), [...(focusRef.current ?? []), selectedRef.current]);
      apply(c, first);
      pinLabels(c, pinned);
      let frame = 0;
      const report = () => {
        frame = 0;
        if (!alive) return;
        const r = visibleRange({ zoom: c.zoom(), pan: c.pan() }, c.width());
        setView({ ...r, partial: !first.all });
      };
      c.on('viewport', () => {
        pinLabels(c, pinned);
        if (!frame) frame = requestAnimationFrame(report);
      });
      report();
      c.on('tap', 'node', (e) => onSelectRef.current(e.target.id()));
      cy.current = c;
      // A new width (a phone turned, a window resized) would leave the first view cut off or lost in
      // space: Cytoscape is told its size, and the first view is shown again at it.
      let width = c.width();
      watch = new ResizeObserver(() => {
        c.resize();
        if (!alive || Math.abs(c.width() - width) < 40) return;
        width = c.width();
        apply(c, firstView(drawing, width, c.height(), [...(focusRef.current ?? []), selectedRef.current]));
      });
      watch.observe(box.current);
      // For bench/graph-browser.bench.ts: how long building, placing and fitting took in Cytoscape,
      // and until the frame after Cytoscape's first paint (it draws in an animation frame).
      const el = box.current;
      el.dataset.layoutMs = String(Math.round(performance.now() - t0));
      el.dataset.ready = 'true';
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          if (alive) el.dataset.paintedMs = String(Math.round(performance.now() - t0));
        }),
      );
    });
    return () => {
      alive = false;
      watch?.disconnect();
      pinned.current = undefined;
      cy.current?.destroy();
      cy.current = undefined;
    };
  }, [drawing]);

  useEffect(() => {
    const c = cy.current;
    if (!c) return;
    c.nodes().unselect();
    if (selected) c.getElementById(selected).select();
    pinLabels(c, pinned);
  }, [selected, drawing]);

  const centreOn = (x: number) => {
    const c = cy.current;
    if (c) c.pan({ x: c.width() / 2 - c.zoom() * x, y: c.pan().y });
  };

  useImperativeHandle(ref, () => ({
    fit: () => {
      const c = cy.current;
      if (c) apply(c, fitAll(drawing, c.width(), c.height(), c.minZoom()));
    },
    reset: () => {
      const c = cy.current;
      if (c) apply(c, firstView(drawing, c.width(), c.height(), [...(focus ?? []), selected]));
    },
    zoom: (by) => {
      const c = cy.current;
      if (c) c.zoom({ level: c.zoom() * by, renderedPosition: { x: c.width() / 2, y: c.height() / 2 } });
    },
    focus: (name) => {
      const n = cy.current?.getElementById(name);
      if (n && n.nonempty()) cy.current!.animate({ center: { eles: n }, duration: 200 });
    },
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
      cy.current?.animate({ center: { eles: cy.current.getElementById(name) }, duration: 150 });
    }
  };

  return (
    <div className="space-y-1">
      <div
        ref={box}
        role="application"
        aria-label={label}
        aria-describedby={describedBy}
        aria-roledescription="upgrade graph"
        tabIndex={0}
        onKeyDown={onKey}
        className={`${height} w-full rounded border border-slate-300 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-600`}
      />
      {view?.partial && <GraphOverview drawing={drawing} view={view} selected={selected} onMove={centreOn} />}
    </div>
  );
});
