// OperatorHub's facet counts as a person reads them beside each filter: how many tiles choosing a
// value would show. The expectations are counted by hand from the packages below.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { applyFilters, facetCounts } from './filter';
import type { PackageSummary } from './package-summary';

const operators = { name: 'operators', namespace: 'olm', displayName: 'Operators' };
const community = { name: 'community', namespace: 'olm', displayName: 'Community' };

/** A package with what a tile needs, and the facts a test names. */
function pkg(name: string, facts: Partial<PackageSummary> = {}): PackageSummary {
  return {
    name,
    catalog: operators,
    displayName: name,
    provider: '',
    shortDescription: '',
    categories: [],
    keywords: [],
    installModes: [],
    infrastructureFeatures: [],
    validSubscription: [],
    nonStandalone: false,
    arch: [],
    os: [],
    ...facts,
  };
}

describe('facet counts', () => {
  test('each value counts the packages that have it, once per package', () => {
    const counts = facetCounts([
      pkg('etcd', { categories: ['Database', 'Storage', 'Database'], provider: 'CoreOS', capability: 'Basic Install' }),
      pkg('redis', { categories: ['Database'], provider: 'Redis', installModes: ['OwnNamespace', 'AllNamespaces'] }),
      pkg('vault', {
        catalog: community,
        categories: ['Security'],
        provider: 'CoreOS',
        installModes: ['AllNamespaces', 'AllNamespaces'],
        infrastructureFeatures: ['disconnected'],
        validSubscription: ['Some Subscription'],
        installedIn: ['team1'],
      }),
    ]);
    assert.deepEqual(counts, {
      catalog: { 'olm/operators': 2, 'olm/community': 1 },
      category: { Database: 2, Storage: 1, Security: 1 },
      provider: { CoreOS: 2, Redis: 1 },
      capability: { 'Basic Install': 1 },
      installMode: { OwnNamespace: 1, AllNamespaces: 2 },
      infrastructureFeature: { disconnected: 1 },
      validSubscription: { 'Some Subscription': 1 },
      installState: { notInstalled: 2, installed: 1 },
      olm: { v0: 3 },
    });
  });

  test('a package OLM v1 offers too counts under its ClusterCatalogs and under both OLMs', () => {
    const counts = facetCounts([
      pkg('etcd', { clusterCatalogs: ['operatorhubio'], installedAs: ['etcd'] }),
      pkg('argocd', {
        catalog: { name: 'operatorhubio', namespace: '', displayName: 'x', kind: 'ClusterCatalog' },
        clusterCatalogs: ['operatorhubio'],
      }),
    ]);
    assert.deepEqual(counts.catalog, { 'olm/operators': 1, 'ClusterCatalog/operatorhubio': 2 });
    assert.deepEqual(counts.olm, { v0: 1, v1: 2 });
    assert.deepEqual(counts.installState, { installed: 1, notInstalled: 1 });
  });

  test('a value a catalog names like a property of every object is counted as any other', () => {
    const counts = facetCounts([
      pkg('a', { categories: ['__proto__', 'toString'], provider: 'constructor' }),
      pkg('b', { categories: ['toString'], provider: 'constructor' }),
    ]);
    assert.deepEqual(Object.entries(counts.category), [
      ['__proto__', 1],
      ['toString', 2],
    ]);
    assert.deepEqual(Object.entries(counts.provider), [['constructor', 2]]);
    // What the browser receives: the counts survive the list's JSON.
    const sent = JSON.parse(JSON.stringify(counts)) as typeof counts;
    assert.equal(Object.getOwnPropertyDescriptor(sent.category, '__proto__')?.value, 1);
  });

  test('the counts are what choosing each value shows', () => {
    const list = Array.from({ length: 60 }, (_, i) =>
      pkg(`p${i}`, {
        categories: [['Database', 'Storage', 'Security'][i % 3]!, ['Database', 'Monitoring'][i % 2]!],
        provider: `provider ${i % 7}`,
        installModes: i % 4 ? ['OwnNamespace'] : ['OwnNamespace', 'AllNamespaces'],
        catalog: i % 5 ? operators : community,
      }),
    );
    const counts = facetCounts(list);
    for (const facet of ['category', 'provider', 'installMode', 'catalog'] as const)
      for (const [value, n] of Object.entries(counts[facet]))
        assert.equal(n, applyFilters(list, { [facet]: [value] }).length, `${facet} ${value}`);
  });
});

describe('filters', () => {
  const list = [
    pkg('etcd', { categories: ['Database'], provider: 'CoreOS' }),
    pkg('redis', { categories: ['Database'], provider: 'Redis' }),
    pkg('vault', { categories: ['Security'], provider: 'CoreOS' }),
    pkg('helper', { categories: ['Database'], provider: 'CoreOS', nonStandalone: true }),
  ];
  const names = (l: PackageSummary[]) => l.map((p) => p.name);

  test('without a choice every package shows but the dependency-only ones', () => {
    assert.deepEqual(names(applyFilters(list, {})), ['etcd', 'redis', 'vault']);
    assert.deepEqual(names(applyFilters(list, { includeNonStandalone: true })), ['etcd', 'redis', 'vault', 'helper']);
  });

  test('any value chosen in a facet shows its packages; every facet chosen must match', () => {
    assert.deepEqual(names(applyFilters(list, { category: ['Database', 'Security'] })), ['etcd', 'redis', 'vault']);
    assert.deepEqual(names(applyFilters(list, { category: ['Database'], provider: ['CoreOS'] })), ['etcd']);
    assert.deepEqual(names(applyFilters(list, { category: [], provider: ['Redis'] })), ['redis']);
    assert.deepEqual(names(applyFilters(list, { provider: ['Nobody'] })), []);
  });
});
