import assert from 'node:assert/strict';
import { test } from 'node:test';
import { graphFromModel } from '../catalog/graph-view';
import { loadCatalog } from '../olm/fbc/load-catalog';
import { needsSharedCatalogs, sharedCatalog, whenSharedCatalogs } from '../testing/shared-catalogs';
import { drawChannel, drawingBounds, type Drawing } from './graph-drawing';
import { firstView, fitAll, LABEL_FONT, MIN_LABEL_PX, NEWEST, READABLE_ZOOM, visibleRange } from './graph-viewport';

// portworx-certified's stable channel in ../shared/catalogs (certified-operators-v4.18): 48
// versions on one replaces chain, 1.6.1 … 26.3.1 (head). gatekeeper's 3.17 channel: 4 versions.
const px = whenSharedCatalogs(() =>
  loadCatalog(sharedCatalog('certified-operators-v4.18', 'portworx-certified')).packages.get('portworx-certified')!,
);
const gk = whenSharedCatalogs(() =>
  loadCatalog(sharedCatalog('gatekeeper-operator-product-v4.20')).packages.get('gatekeeper-operator-product')!,
);
const stable = whenSharedCatalogs(() => drawChannel(graphFromModel(px, 'stable')));
const W = 900;
const H = 448;
const v = (version: string) => `portworx-operator.v${version}`;
const versionsOf = (d: Drawing, ids: string[]) =>
  ids.map((id) => d.nodes.find((n) => n.id === id)!.label.split('\n')[0]!);

/** Every id in `shown` lies inside what the viewport really shows. */
function assertShown(d: Drawing, view: ReturnType<typeof firstView>, width = W) {
  const r = visibleRange(view, width);
  for (const id of view.shown) {
    const x = d.nodes.find((n) => n.id === id)!.x;
    assert.ok(x >= r.x1 && x <= r.x2, `${id} at ${x} is inside ${r.x1}..${r.x2}`);
  }
}

test('labels are readable at the zoom the first view may go down to', () => {
  assert.ok(LABEL_FONT * READABLE_ZOOM >= MIN_LABEL_PX);
  assert.ok(MIN_LABEL_PX >= 10);
});

test(
  'a long channel: the first view is its newest versions at a readable zoom, the head among them',
  needsSharedCatalogs,
  () => {
    assert.equal(stable.nodes.length, 48);
    assert.ok(fitAll(stable, W, H).zoom < READABLE_ZOOM, 'fitted whole, its labels cannot be read');
    const view = firstView(stable, W, H);
    assert.equal(view.all, false);
    assert.ok(view.zoom >= READABLE_ZOOM, `zoom ${view.zoom}`);
    assert.equal(view.shown.length, NEWEST);
    assert.deepEqual(versionsOf(stable, view.shown).slice(-3), ['26.2.1', '26.3.0', '26.3.1']);
    assert.equal(view.shown.at(-1), v('26.3.1'), 'the head is in view');
    assertShown(stable, view);
  },
);

test(
  'the installed version is added to the newest when it fits; from far away the view starts there',
  needsSharedCatalogs,
  () => {
    // 25.3.1 is the 12th newest: on a wider canvas it joins the newest 10.
    const near = firstView(stable, 1100, H, [v('25.3.1')]);
    assert.ok(near.zoom >= READABLE_ZOOM);
    assert.equal(near.shown[0], v('25.3.1'));
    assert.equal(near.shown.length, 12);
    assert.equal(near.shown.at(-1), v('26.3.1'));
    assertShown(stable, near, 1100);
    // 24.2.0 is 20 versions back: not with the head at a readable zoom. The view starts at it.
    const far = firstView(stable, W, H, [undefined, v('24.2.0'), 'no-such-bundle']);
    assert.ok(far.zoom >= READABLE_ZOOM && far.zoom < READABLE_ZOOM + 0.01, `zoom ${far.zoom}`);
    assert.ok(far.zoom * LABEL_FONT >= MIN_LABEL_PX, 'not even a rounding error under');
    assert.equal(far.shown[0], v('24.2.0'));
    assert.ok(far.shown.length >= 8 && !far.shown.includes(v('26.3.1')));
    assertShown(stable, far);
  },
);

test('a narrow canvas shows fewer of the newest, still readable', needsSharedCatalogs, () => {
  const view = firstView(stable, 420, 288, [v('26.3.0')]);
  assert.ok(view.zoom >= READABLE_ZOOM);
  assert.ok(view.shown.length >= 3 && view.shown.length < NEWEST, `${view.shown.length} shown`);
  assert.equal(view.shown.at(-1), v('26.3.1'));
  assert.ok(view.shown.includes(v('26.3.0')));
  assertShown(stable, view, 420);
});

test('a short channel is shown whole, never blown up past 1.2', needsSharedCatalogs, () => {
  const d = drawChannel(graphFromModel(gk, '3.17'));
  const view = firstView(d, W, H);
  assert.equal(view.all, true);
  assert.equal(view.shown.length, d.nodes.length);
  assert.ok(view.zoom <= 1.2);
  const b = drawingBounds(d);
  const r = visibleRange(view, W);
  assert.ok(r.x1 <= b.x1 && r.x2 >= b.x2);
  assert.equal(firstView({ nodes: [], edges: [], order: [] }, W, H).all, true);
});

test('fitting everything puts every version in view', needsSharedCatalogs, () => {
  const all = fitAll(stable, W, H);
  const r = visibleRange(all, W);
  const b = drawingBounds(stable);
  assert.ok(r.x1 <= b.x1 + 0.01 && r.x2 >= b.x2 - 0.01);
});
