// How Cytoscape draws the graph's marks: bundles (head, never a target, deprecated, installed,
// on the path, selected), edges by kind, channel colours in an overlay, the path over dimmed edges.
import { LABEL_FONT } from '@/lib/hub/graph-viewport';

/** The bundles whose labels stay readable at any zoom. */
export const PINNED = 'node.head, node.installed, node.start, node:selected';

export const STYLE = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      'background-color': '#ffffff',
      'border-width': 2,
      'border-color': '#64748b',
      width: 18,
      height: 18,
      'font-size': LABEL_FONT,
      'text-wrap': 'wrap',
      'text-valign': 'top',
      'text-margin-y': -6,
      color: '#0f172a',
      'min-zoomed-font-size': 7,
    },
  },
  { selector: 'node.head', style: { 'background-color': '#047857', 'border-color': '#065f46', width: 24, height: 24 } },
  { selector: 'node.never', style: { 'border-style': 'dashed', 'background-color': '#f1f5f9', color: '#64748b' } },
  { selector: 'node.deprecated', style: { 'border-color': '#d97706', 'background-color': '#fef3c7' } },
  { selector: 'node.on-path', style: { 'border-color': '#0369a1', 'border-width': 4 } },
  { selector: 'node.start', style: { 'background-color': '#0369a1' } },
  {
    selector: 'node.installed',
    style: { 'border-style': 'double', 'border-width': 6, 'border-color': '#0c4a6e', 'font-weight': 'bold' },
  },
  { selector: 'node:selected', style: { 'overlay-color': '#0284c7', 'overlay-opacity': 0.25, 'overlay-padding': 6 } },
  // Always labelled, over whatever edges pass behind: the head, installed, start and selected.
  {
    selector: PINNED,
    style: {
      'min-zoomed-font-size': 0,
      'text-background-color': '#ffffff',
      'text-background-opacity': 0.9,
      'text-background-padding': '2px',
      'text-background-shape': 'roundrectangle',
      'font-weight': 'bold',
      'z-index': 20,
    },
  },
  {
    selector: 'edge',
    style: {
      width: 1.5,
      'curve-style': 'unbundled-bezier',
      'control-point-distances': 'data(lift)',
      'control-point-weights': 0.5,
      'target-arrow-shape': 'triangle',
      'arrow-scale': 0.8,
    },
  },
  // Arrows point the way an update travels, from the older bundle to the newer.
  {
    selector: 'edge.replaces',
    style: { 'line-color': '#475569', 'target-arrow-color': '#475569', 'curve-style': 'straight' },
  },
  {
    selector: 'edge.skips',
    style: { 'line-color': '#7c3aed', 'target-arrow-color': '#7c3aed', 'line-style': 'dashed' },
  },
  {
    selector: 'edge.skipRange',
    style: { 'line-color': '#0891b2', 'target-arrow-color': '#0891b2', 'line-style': 'dotted', width: 2 },
  },
  // Overlaid channels: colour says the channel, line style still says the kind.
  {
    selector: 'edge.overlay',
    style: { 'line-color': 'data(color)', 'target-arrow-color': 'data(color)', 'curve-style': 'unbundled-bezier' },
  },
  // With a path shown, the other edges step back so the path reads at a glance.
  { selector: 'edge.dim', style: { opacity: 0.2 } },
  {
    selector: 'edge.on-path',
    style: { width: 4, 'line-color': '#0369a1', 'target-arrow-color': '#0369a1', 'z-index': 10 },
  },
];
