// Catalog selection for resolution, with expectations from operator-controller v1.2.0:
// resolve/catalog_test.go (TestInvalidClusterExtensionCatalogMatchExpressions,
// TestClusterExtensionMatchLabel, TestAllCatalogsDisabled) and catalogmetadata/client/client.go
// validateCatalog's messages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { selectCatalogs, type CatalogFacts } from './catalog-selection';

const cat = (name: string, extra: Partial<CatalogFacts> = {}): CatalogFacts => ({
  name,
  labels: { 'olm.operatorframework.io/metadata.name': name },
  priority: 0,
  serving: true,
  resolvedRef: `quay.io/x/${name}@sha256:0`,
  ...extra,
});

test('an unknown operator is an invalid selector', () => {
  assert.deepEqual(
    selectCatalogs([cat('a')], { matchExpressions: [{ key: 'name', operator: 'bad', values: ['value'] }] }),
    { error: 'desired catalog selector is invalid: "bad" is not a valid label selector operator' },
  );
});

test('the selector picks by label; Unavailable catalogs drop out; no selector takes all', () => {
  const all = [cat('a'), cat('b'), cat('c', { availabilityMode: 'Unavailable' })];
  const by = (s?: Parameters<typeof selectCatalogs>[1]) => {
    const r = selectCatalogs(all, s);
    return 'error' in r ? r.error : r.map((c) => c.name);
  };
  assert.deepEqual(by({ matchLabels: { 'olm.operatorframework.io/metadata.name': 'b' } }), ['b']);
  assert.deepEqual(by(undefined), ['a', 'b']);
  assert.deepEqual(by({}), ['a', 'b']);
  assert.deepEqual(
    by({ matchExpressions: [{ key: 'olm.operatorframework.io/metadata.name', operator: 'NotIn', values: ['a'] }] }),
    ['b'],
  );
});

test('a selected catalog that is not Serving is an error, not skipped', () => {
  const r = selectCatalogs([cat('a'), cat('b', { serving: false })], undefined);
  assert.ok(!('error' in r));
  assert.deepEqual(r[1], { name: 'b', error: 'catalog "b" is not being served' });
});
