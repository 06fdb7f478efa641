'use client';
// Cytoscape drawing what lib/hub/graph-drawing decided: bundles along the version axis, edges by
// kind (replaces straight, skips arched above, skipRange arched below; in an overlay, coloured by
// channel), the head, deprecated, never-target and installed bundles marked, the chosen path
// highlighted. Cytoscape is loaded only in the browser. Arrow keys move between versions.
import type { Core, ElementDefinition } from 'cytoscape';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import { drawingBounds, type Bounds, type Drawing } from '@/lib/hub/graph-drawing';

export interface GraphCanvasHandle {
  fit(): void;
  zoom(by: number): void;
  focus(name: string): void;
}

function elements(d: Drawing): ElementDefinition[] {
  return [
    ...d.nodes.map((n): ElementDefinition => ({ group: 'nodes', data: { id: n.id, label: n.label }, position: { x: n.x, y: n.y }, classes: n.classes.join(' ') })),
    ...d.edges.map((e): ElementDefinition => ({ group: 'edges', data: { id: e.id, source: e.from, target: e.to, kind: e.kind, lift: e.lift, ...(e.color ? { color: e.color } : {}) }, classes: e.classes.join(' ') })),
  ];
}

const STYLE = [
  { selector: 'node', style: { label: 'data(label)', 'background-color': '#ffffff', 'border-width': 2, 'border-color': '#64748b', width: 18, height: 18, 'font-size': 11, 'text-valign': 'top', 'text-margin-y': -6, color: '#0f172a', 'min-zoomed-font-size': 7 } },
  { selector: 'node.head', style: { 'background-color': '#047857', 'border-color': '#065f46', width: 24, height: 24 } },
  { selector: 'node.never', style: { 'border-style': 'dashed', 'background-color': '#f1f5f9', color: '#64748b' } },
  { selector: 'node.deprecated', style: { 'border-color': '#d97706', 'background-color': '#fef3c7' } },
  { selector: 'node.on-path', style: { 'border-color': '#0369a1', 'border-width': 4 } },
  { selector: 'node.start', style: { 'background-color': '#0369a1' } },
  { selector: 'node.installed', style: { 'border-style': 'double', 'border-width': 6, 'border-color': '#0c4a6e', 'font-weight': 'bold' } },
  { selector: 'node:selected', style: { 'overlay-color': '#0284c7', 'overlay-opacity': 0.25, 'overlay-padding': 6 } },
  { selector: 'edge', style: { width: 1.5, 'curve-style': 'unbundled-bezier', 'control-point-distances': 'data(lift)', 'control-point-weights': 0.5, 'target-arrow-shape': 'triangle', 'arrow-scale': 0.8 } },
  // Arrows point the way an update travels, from the older bundle to the newer.
  { selector: 'edge.replaces', style: { 'line-color': '#475569', 'target-arrow-color': '#475569', 'curve-style': 'straight' } },
  { selector: 'edge.skips', style: { 'line-color': '#7c3aed', 'target-arrow-color': '#7c3aed', 'line-style': 'dashed' } },
  { selector: 'edge.skipRange', style: { 'line-color': '#0891b2', 'target-arrow-color': '#0891b2', 'line-style': 'dotted', width: 2 } },
  // Overlaid channels: colour says the channel, line style still says the kind.
  { selector: 'edge.overlay', style: { 'line-color': 'data(color)', 'target-arrow-color': 'data(color)', 'curve-style': 'unbundled-bezier' } },
  // With a path shown, the other edges step back so the path reads at a glance.
  { selector: 'edge.dim', style: { opacity: 0.2 } },
  { selector: 'edge.on-path', style: { width: 4, 'line-color': '#0369a1', 'target-arrow-color': '#0369a1', 'z-index': 10 } },
];

/** Fit the whole graph, but never blow a handful of versions up past a readable size. */
function fitReadable(c: Core, b: Bounds): void {
  const pad = 30;
  const zoom = Math.min(1.2, (c.width() - 2 * pad) / Math.max(1, b.x2 - b.x1), (c.height() - 2 * pad) / Math.max(1, b.y2 - b.y1));
  const level = Math.max(c.minZoom(), zoom);
  c.viewport({ zoom: level, pan: { x: c.width() / 2 - level * (b.x1 + b.x2) / 2, y: c.height() / 2 - level * (b.y1 + b.y2) / 2 } });
}

interface Props {
  drawing: Drawing;
  selected?: string;
  onSelect: (name: string) => void;
  label: string;
  /** Tailwind height class; the full viewer is taller than the one embedded in a tab. */
  height?: string;
}

export const GraphCanvas = forwardRef<GraphCanvasHandle, Props>(function GraphCanvas({ drawing, selected, onSelect, label, height = 'h-[28rem]' }, ref) {
  const box = useRef<HTMLDivElement>(null);
  const cy = useRef<Core | undefined>(undefined);
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  });

  useEffect(() => {
    let alive = true;
    void import('cytoscape').then(({ default: cytoscape }) => {
      if (!alive || !box.current) return;
      const t0 = performance.now();
      const c = cytoscape({ container: box.current, elements: elements(drawing), style: STYLE as never, layout: { name: 'preset' }, minZoom: 0.05, maxZoom: 3, wheelSensitivity: 0.3, boxSelectionEnabled: false, autoungrabify: true });
      fitReadable(c, drawingBounds(drawing));
      c.on('tap', 'node', (e) => onSelectRef.current(e.target.id()));
      cy.current = c;
      // For bench/graph-browser.bench.ts: how long building, placing and fitting took in Cytoscape,
      // and until the frame after Cytoscape's first paint (it draws in an animation frame).
      const el = box.current;
      el.dataset.layoutMs = String(Math.round(performance.now() - t0));
      el.dataset.ready = 'true';
      requestAnimationFrame(() => requestAnimationFrame(() => {
        if (alive) el.dataset.paintedMs = String(Math.round(performance.now() - t0));
      }));
    });
    return () => {
      alive = false;
      cy.current?.destroy();
      cy.current = undefined;
    };
  }, [drawing]);

  useEffect(() => {
    const c = cy.current;
    if (!c) return;
    c.nodes().unselect();
    if (selected) c.getElementById(selected).select();
  }, [selected, drawing]);

  useImperativeHandle(ref, () => ({
    fit: () => cy.current && fitReadable(cy.current, drawingBounds(drawing)),
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
    const next = e.key === 'Home' ? 0 : e.key === 'End' ? order.length - 1 : e.key === 'ArrowLeft' ? Math.max(0, i - 1) : Math.min(order.length - 1, i + 1);
    const name = order[next];
    if (name) {
      onSelect(name);
      cy.current?.animate({ center: { eles: cy.current.getElementById(name) }, duration: 150 });
    }
  };

  return <div ref={box} role="application" aria-label={label} aria-roledescription="upgrade graph" tabIndex={0} onKeyDown={onKey} className={`${height} w-full rounded border border-slate-300 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-600`} />;
});
