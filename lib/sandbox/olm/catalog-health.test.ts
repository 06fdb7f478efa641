import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { updateCatalogHealth, type CatalogHealth } from './catalog-health';

// Expectations from OLM v0.38.0's catalog/subscription/state.go (UpdateHealth).
const h = (namespace: string, name: string, healthy: boolean): CatalogHealth => ({
  catalogSourceRef: {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
    name,
    namespace,
    uid: `${namespace}-${name}`,
  },
  healthy,
  lastUpdated: 't0',
});
const target = { source: 'cat', sourceNamespace: 'olm' };
const cond = (r: ReturnType<typeof updateCatalogHealth>) => {
  const c = r?.conditions.find((x) => x.type === 'CatalogSourcesUnhealthy');
  return c && { status: c.status, reason: c.reason, message: c.message };
};

describe('Subscription catalog health', () => {
  test('first sync names the change, the next the state', () => {
    const first = updateCatalogHealth(target, {}, [h('olm', 'cat', true)], 't1');
    assert.deepEqual(cond(first), {
      status: 'False',
      reason: 'CatalogSourcesAdded',
      message: 'all available catalogsources are healthy',
    });
    const second = updateCatalogHealth(target, first!, [h('olm', 'cat', true)], 't2');
    assert.deepEqual(cond(second), {
      status: 'False',
      reason: 'AllCatalogSourcesHealthy',
      message: 'all available catalogsources are healthy',
    });
    assert.equal(updateCatalogHealth(target, second!, [h('olm', 'cat', true)], 't3'), undefined);
  });

  test('another catalog unhealthy: True, with the message the condition had', () => {
    const healthy = updateCatalogHealth(
      target,
      updateCatalogHealth(target, {}, [h('olm', 'cat', true), h('ns', 'other', true)], 't1')!,
      [h('olm', 'cat', true), h('ns', 'other', true)],
      't2',
    )!;
    const other = updateCatalogHealth(target, healthy, [h('olm', 'cat', true), h('ns', 'other', false)], 't3');
    assert.deepEqual(cond(other), {
      status: 'True',
      reason: 'CatalogSourcesUpdated',
      message: 'all available catalogsources are healthy',
    });
    assert.deepEqual(
      cond(updateCatalogHealth(target, other!, [h('olm', 'cat', true), h('ns', 'other', false)], 't4')),
      { status: 'True', reason: 'UnhealthyCatalogSourceFound', message: 'all available catalogsources are healthy' },
    );
    // On a first sync there is no message to keep.
    assert.deepEqual(cond(updateCatalogHealth(target, {}, [h('olm', 'cat', true), h('ns', 'other', false)], 't1')), {
      status: 'True',
      reason: 'CatalogSourcesAdded',
      message: undefined,
    });
  });

  test('the targeted catalog unhealthy or missing, and no catalogs at all', () => {
    const prev = { catalogHealth: [h('olm', 'cat', false)] };
    assert.deepEqual(cond(updateCatalogHealth(target, prev, [h('olm', 'cat', false)], 't')), {
      status: 'True',
      reason: 'UnhealthyCatalogSourceFound',
      message: 'targeted catalogsource olm/cat unhealthy',
    });
    assert.deepEqual(
      cond(updateCatalogHealth(target, { catalogHealth: [h('olm', 'x', true)] }, [h('olm', 'x', true)], 't')),
      { status: 'True', reason: 'UnhealthyCatalogSourceFound', message: 'targeted catalogsource olm/cat missing' },
    );
    const none = updateCatalogHealth(target, {}, [], 't');
    assert.deepEqual(cond(none), {
      status: 'True',
      reason: 'NoCatalogSourcesFound',
      message: 'dependency resolution requires at least one catalogsource',
    });
    assert.equal(updateCatalogHealth(target, none!, [], 't2'), undefined);
  });
});
