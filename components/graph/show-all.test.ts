import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Drawing } from '@/lib/hub/graph-drawing';
import { READABLE_ZOOM } from '@/lib/hub/graph-viewport';
import { MAX_WIDTH_PX, showAll } from './show-all';

/** `n` versions 120 apart on one line, each replacing the one before. */
function line(n: number): Drawing {
  const nodes = Array.from({ length: n }, (_, i) => ({
    id: `v${i}`,
    label: `${i}.0.0`,
    x: i * 120,
    y: 0,
    classes: [],
  }));
  return {
    nodes,
    edges: nodes.slice(1).map((to, i) => ({
      id: `r${i}`,
      from: `v${i}`,
      to: to.id,
      kind: 'replaces' as const,
      lift: 0,
      classes: ['replaces'],
    })),
    order: nodes.map((x) => x.id),
  };
}

/** Where a model x lands on the canvas, in CSS pixels. */
const at = (v: { zoom: number; pan: { x: number } }, x: number) => v.pan.x + v.zoom * x;

test('a short channel fits the box as it is: nothing to scroll', () => {
  const v = showAll(line(6), 1000, 450);
  assert.equal(v.width, 1000);
  assert.ok(at(v, 0) > 0 && at(v, 600) < 1000, 'every version inside the box');
});

test('an 82-version channel stays at a zoom its labels can be read at, wider than the box, to scroll', () => {
  const v = showAll(line(82), 1000, 450);
  assert.ok(v.zoom >= READABLE_ZOOM - 1e-9, `zoom ${v.zoom}`);
  assert.ok(v.width > 1000, `the canvas is ${v.width} px wide`);
  assert.ok(at(v, 0) > 0 && at(v, 81 * 120) < v.width, 'the oldest and the newest are on the canvas');
});

test('the longest channels stop at the widest canvas allowed, closer together', () => {
  const v = showAll(line(574), 1000, 450);
  assert.equal(v.width, MAX_WIDTH_PX);
  assert.ok(at(v, 0) > 0 && at(v, 573 * 120) < MAX_WIDTH_PX);
  assert.ok(v.zoom * 120 > 15, `versions still ${v.zoom * 120} px apart`);
});
