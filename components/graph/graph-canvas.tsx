'use client';
// The Cytoscape drawing of one channel: bundles placed by lib/hub/graph-layout (version along x,
// never-a-target bundles on their own lane), edges by kind (replaces straight, skips arched above,
// skipRange arched below), the head, deprecated and never-target bundles marked, the chosen path
// highlighted. Cytoscape is loaded only in the browser. Arrow keys move between versions.
import type { Core, ElementDefinition } from 'cytoscape';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';
import type { GraphView } from '@/lib/hub/catalog-types';
import { byVersion, layoutChannel } from '@/lib/hub/graph-layout';

export interface GraphCanvasHandle {
  fit(): void;
  zoom(by: number): void;
  focus(name: string): void;
}

function elements(g: GraphView): ElementDefinition[] {
  const pos = layoutChannel(g.nodes);
  const x = (name: string) => pos.get(name)?.x ?? 0;
  const onPath = new Set((g.path?.steps ?? []).map((s) => `${s.from}>${s.to}`));
  const pathNodes = new Set((g.path?.steps ?? []).flatMap((s) => [s.from, s.to]));
  if (g.path) pathNodes.add(g.path.from);
  const nodes: ElementDefinition[] = g.nodes.map((n) => ({
    group: 'nodes',
    data: { id: n.name, label: n.version ?? n.name },
    position: pos.get(n.name)!,
    classes: [n.isHead && 'head', n.deprecation && 'deprecated', n.legacyDeprecated && 'deprecated', n.neverTarget && 'never', pathNodes.has(n.name) && 'on-path', g.path?.from === n.name && 'start'].filter(Boolean).join(' '),
  }));
  const edges: ElementDefinition[] = g.edges.map((e) => {
    // Arcs grow with the distance they span, so long skips clear the bundles in between.
    const span = Math.abs(x(e.to) - x(e.from));
    const lift = e.kind === 'replaces' ? 0 : Math.min(40 + span * 0.25, 260) * (e.kind === 'skips' ? -1 : 1);
    return {
      group: 'edges',
      data: { id: `${e.kind}:${e.from}>${e.to}`, source: e.from, target: e.to, kind: e.kind, lift },
      classes: [e.kind, onPath.has(`${e.from}>${e.to}`) ? 'on-path' : onPath.size > 0 && 'dim'].filter(Boolean).join(' '),
    };
  });
  return [...nodes, ...edges];
}

const STYLE = [
  { selector: 'node', style: { label: 'data(label)', 'background-color': '#ffffff', 'border-width': 2, 'border-color': '#64748b', width: 18, height: 18, 'font-size': 11, 'text-valign': 'top', 'text-margin-y': -6, color: '#0f172a' } },
  { selector: 'node.head', style: { 'background-color': '#047857', 'border-color': '#065f46', width: 24, height: 24 } },
  { selector: 'node.never', style: { 'border-style': 'dashed', 'background-color': '#f1f5f9', color: '#64748b' } },
  { selector: 'node.deprecated', style: { 'border-color': '#d97706', 'background-color': '#fef3c7' } },
  { selector: 'node.on-path', style: { 'border-color': '#0369a1', 'border-width': 4 } },
  { selector: 'node.start', style: { 'background-color': '#0369a1' } },
  { selector: 'node:selected', style: { 'overlay-color': '#0284c7', 'overlay-opacity': 0.25, 'overlay-padding': 6 } },
  { selector: 'edge', style: { width: 1.5, 'curve-style': 'unbundled-bezier', 'control-point-distances': 'data(lift)', 'control-point-weights': 0.5, 'target-arrow-shape': 'triangle', 'arrow-scale': 0.8 } },
  // Arrows point the way an update travels, from the older bundle to the newer.
  { selector: 'edge.replaces', style: { 'line-color': '#475569', 'target-arrow-color': '#475569', 'curve-style': 'straight' } },
  { selector: 'edge.skips', style: { 'line-color': '#7c3aed', 'target-arrow-color': '#7c3aed', 'line-style': 'dashed' } },
  { selector: 'edge.skipRange', style: { 'line-color': '#0891b2', 'target-arrow-color': '#0891b2', 'line-style': 'dotted', width: 2 } },
  // With a path shown, the other edges step back so the path reads at a glance.
  { selector: 'edge.dim', style: { opacity: 0.2 } },
  { selector: 'edge.on-path', style: { width: 4, 'line-color': '#0369a1', 'target-arrow-color': '#0369a1', 'z-index': 10 } },
];

export const GraphCanvas = forwardRef<GraphCanvasHandle, { graph: GraphView; selected?: string; onSelect: (name: string) => void; label: string }>(function GraphCanvas({ graph, selected, onSelect, label }, ref) {
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
      const c = cytoscape({ container: box.current, elements: elements(graph), style: STYLE as never, layout: { name: 'preset' }, minZoom: 0.05, maxZoom: 3, wheelSensitivity: 0.3, boxSelectionEnabled: false, autoungrabify: true });
      c.fit(undefined, 30);
      c.on('tap', 'node', (e) => onSelectRef.current(e.target.id()));
      cy.current = c;
      // For bench/graph-browser.bench.ts: how long building and laying out took.
      box.current.dataset.layoutMs = String(Math.round(performance.now() - t0));
      box.current.dataset.ready = 'true';
    });
    return () => {
      alive = false;
      cy.current?.destroy();
      cy.current = undefined;
    };
  }, [graph]);

  useEffect(() => {
    const c = cy.current;
    if (!c) return;
    c.nodes().unselect();
    if (selected) c.getElementById(selected).select();
  }, [selected, graph]);

  useImperativeHandle(ref, () => ({
    fit: () => cy.current?.fit(undefined, 30),
    zoom: (by) => {
      const c = cy.current;
      if (c) c.zoom({ level: c.zoom() * by, renderedPosition: { x: c.width() / 2, y: c.height() / 2 } });
    },
    focus: (name) => {
      const n = cy.current?.getElementById(name);
      if (n && n.nonempty()) cy.current!.animate({ center: { eles: n }, duration: 200 });
    },
  }));

  const order = byVersion(graph.nodes).map((n) => n.name);
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

  return <div ref={box} role="application" aria-label={label} aria-roledescription="upgrade graph" tabIndex={0} onKeyDown={onKey} className="h-[28rem] w-full rounded border border-slate-300 bg-white focus:outline-none focus-visible:ring-2 focus-visible:ring-sky-600" />;
});
