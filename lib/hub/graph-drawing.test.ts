import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graphFromModel } from '../catalog/graph-view';
import { loadCatalog } from '../olm/fbc/load-catalog';
import { needsSharedCatalogs, sharedCatalog, whenSharedCatalogs } from '../testing/shared-catalogs';
import { CHANNEL_COLOURS, drawChannel, drawingBounds, overlayChannels } from './graph-drawing';

// gatekeeper-operator-product in ../shared/catalogs: channels 3.15 … 3.21 and stable, with
// replaces, skips and skipRange; facts below read from its catalog.json by hand.
const P = 'gatekeeper-operator-product';
const pkg = whenSharedCatalogs(() => loadCatalog(sharedCatalog('gatekeeper-operator-product-v4.20')).packages.get(P)!);
const graph = (channel: string, from?: string) => graphFromModel(pkg, channel, from);
const v = (version: string) => `${P}.v${version}`;

test(
  'one channel: the head, the skipped bundles on their own lane, skips arched above and skipRange below',
  needsSharedCatalogs,
  () => {
    const d = drawChannel(graph('stable'));
    const node = (name: string) => d.nodes.find((n) => n.id === name)!;
    assert.deepEqual(node(v('3.21.0')).classes, ['head']);
    assert.ok(node(v('3.15.1')).classes.includes('never'), '3.15.1 is skipped by 3.15.1+0.1727189912.p');
    assert.ok(node(v('3.15.1')).y > node(v('3.17.0')).y, 'never-a-target bundles sit below the main line');
    const edge = (kind: string, from: string, to: string) =>
      d.edges.find((e) => e.kind === kind && e.from === from && e.to === to)!;
    assert.equal(edge('replaces', v('3.20.0'), v('3.21.0')).lift, 0);
    assert.ok(edge('skips', v('3.15.1'), v('3.15.1-0.1727189912.p')).lift < 0);
    assert.ok(edge('skipRange', v('3.17.0'), v('3.21.0')).lift > 0);
    assert.equal(d.edges.length, 8 + 3 + 60);
    assert.equal(d.order[0], v('3.15.1'), 'oldest first; the builds of 3.15.1 tie on precedence and go by name');
    assert.equal(d.order.at(-1), v('3.21.0'));
  },
);

test(
  'a path: its steps highlighted, the other edges dimmed, the start and the installed bundle marked',
  needsSharedCatalogs,
  () => {
    const d = drawChannel(graph('stable', v('3.17.0')), v('3.17.0'));
    const onPath = d.edges.filter((e) => e.classes.includes('on-path'));
    // 3.21.0's skipRange <3.21.0 covers 3.17.0: one InstallPlan, straight to the head.
    assert.deepEqual(
      onPath.map((e) => [e.from, e.to]),
      [[v('3.17.0'), v('3.21.0')]],
    );
    assert.ok(d.edges.filter((e) => !e.classes.includes('on-path')).every((e) => e.classes.includes('dim')));
    const start = d.nodes.find((n) => n.id === v('3.17.0'))!;
    assert.deepEqual(start.classes, ['on-path', 'start', 'installed']);
    assert.equal(start.label, '3.17.0\ninstalled');
    assert.equal(
      drawChannel(graph('stable'), v('3.21.0')).nodes.find((n) => n.id === v('3.21.0'))!.label,
      '3.21.0\nhead, installed',
    );
    assert.equal(
      drawChannel(graph('stable')).edges.some((e) => e.classes.includes('dim')),
      false,
      'no path, nothing dimmed',
    );
  },
);

test(
  'channels overlaid: every bundle once, each channel its colour and lane, heads of each channel marked',
  needsSharedCatalogs,
  () => {
    const d = overlayChannels([graph('stable'), graph('3.17')]);
    assert.equal(d.nodes.length, 13, "stable's 12 bundles and 3.17.3, which only 3.17 has");
    const heads = d.nodes
      .filter((n) => n.classes.includes('head'))
      .map((n) => n.id)
      .sort();
    assert.deepEqual(heads, [v('3.17.3'), v('3.21.0')]);
    assert.deepEqual(d.legend, [
      { channel: 'stable', color: CHANNEL_COLOURS[0], edges: 71 },
      { channel: '3.17', color: CHANNEL_COLOURS[1], edges: 9 },
    ]);
    // 3.17.0 → 3.17.1 by replaces is in both channels: drawn twice, apart.
    const shared = d.edges.filter((e) => e.kind === 'replaces' && e.from === v('3.17.0') && e.to === v('3.17.1'));
    assert.equal(shared.length, 2);
    assert.notEqual(shared[0]!.lift, shared[1]!.lift);
    assert.deepEqual(
      shared.map((e) => e.color),
      [CHANNEL_COLOURS[0], CHANNEL_COLOURS[1]],
    );
    assert.equal(new Set(d.edges.map((e) => e.id)).size, d.edges.length, 'edge ids are unique');
  },
);

test(
  'overlaid, a bundle goes on the never-a-target lane only when no shown channel upgrades to it',
  needsSharedCatalogs,
  () => {
    // 3.15.1 is skipped in both stable and 3.15; 3.15.1+0.1727189912.p is a target in both.
    const d = overlayChannels([graph('stable'), graph('3.15')]);
    const never = d.nodes
      .filter((n) => n.classes.includes('never'))
      .map((n) => n.id)
      .sort();
    assert.deepEqual(never, [v('3.15.1'), v('3.15.1-0.1725401534.p'), v('3.15.1-0.1726639477.p')].sort());
    assert.equal(d.nodes.length, 15, 'stable 12 + 3.15.2, 3.15.3, 3.15.4');
  },
);

test(
  "the drawing's bounds hold every bundle with its label and the highest and lowest arc",
  needsSharedCatalogs,
  () => {
    const d = drawChannel(graph('stable'));
    const b = drawingBounds(d);
    const xs = d.nodes.map((n) => n.x);
    assert.equal(b.x1, Math.min(...xs) - 14);
    assert.equal(b.x2, Math.max(...xs) + 14);
    assert.equal(
      b.y1,
      -14 - 40,
      "the main line's two-line labels are the top: every skips arc here starts on the lower lane",
    );
    // A quadratic curve peaks halfway to its control point: every arc's peak is inside.
    const y = new Map(d.nodes.map((n) => [n.id, n.y]));
    for (const e of d.edges) {
      const peak = (y.get(e.from)! + y.get(e.to)!) / 2 + e.lift / 2;
      assert.ok(peak >= b.y1 && peak <= b.y2, `${e.id} peaks at ${peak}, inside ${b.y1}..${b.y2}`);
    }
    assert.ok(b.y2 > 110 + 14, 'the deepest skipRange arc reaches below the never-target lane');
    assert.deepEqual(drawingBounds({ nodes: [], edges: [], order: [] }), { x1: 0, y1: 0, x2: 0, y2: 0 });
  },
);
