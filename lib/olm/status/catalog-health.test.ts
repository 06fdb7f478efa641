import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CatalogSource } from '../resources/catalog-source';
import type { Subscription } from '../resources/subscription';
import { blockedByUnhealthyCatalogs, catalogHealth } from './catalog-health';

const cs = (
  state?: string,
  extra: Partial<NonNullable<CatalogSource['status']>> = {},
  sourceType = 'grpc',
): CatalogSource => ({
  metadata: { name: 'c', namespace: 'olm' },
  spec: { sourceType },
  status: {
    ...(state ? { connectionState: { lastObservedState: state, lastConnect: '2026-11-23T09:00:00Z' } } : {}),
    ...extra,
  },
});

test("READY is healthy; TRANSIENT_FAILURE says what blocks and passes on OLM's message", () => {
  assert.equal(catalogHealth(cs('READY')).healthy, true);
  assert.equal(catalogHealth(cs('READY')).lastConnect, '2026-11-23T09:00:00Z');
  const bad = catalogHealth(cs('TRANSIENT_FAILURE', { message: 'image pull back-off' }));
  assert.equal(bad.healthy, false);
  assert.match(bad.explanation, /CatalogSourcesUnhealthy/);
  assert.match(bad.explanation, /OLM says: image pull back-off/);
});

test('no state yet, and catalogs OLM serves itself, are said as such', () => {
  assert.equal(catalogHealth(cs()).state, 'UNKNOWN');
  assert.match(catalogHealth(cs()).explanation, /not reported/);
  assert.match(catalogHealth(cs(undefined, {}, 'configmap')).explanation, /configmap catalogs/);
});

test('subscriptions blocked by unhealthy catalogs are those whose condition is True', () => {
  const sub = (name: string, status?: string): Subscription =>
    ({
      metadata: { name },
      spec: { name: 'p', source: 'c', sourceNamespace: 'olm' },
      status: status ? { conditions: [{ type: 'CatalogSourcesUnhealthy', status }] } : {},
    }) as Subscription;
  assert.deepEqual(
    blockedByUnhealthyCatalogs([sub('a', 'True'), sub('b', 'False'), sub('c')]).map((s) => s.metadata?.name),
    ['a'],
  );
});
