// Tile summaries and search over the demo catalog and the real certified catalog.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadCatalog } from '../olm/fbc/load-catalog';
import { DEMO_CATALOG_DIR } from '../sandbox/demo-catalog/location';
import { summarizePackage } from './package-summary';
import { needsSharedCatalogs, sharedCatalog, whenSharedCatalogs } from '../testing/shared-catalogs';
import { searchPackages } from '../hub/search';

const demo = [...loadCatalog(DEMO_CATALOG_DIR).packages.values()].map((p) =>
  summarizePackage(p, { name: 'olm-console-demo', namespace: 'olm' }),
);
const byName = new Map(demo.map((s) => [s.name, s]));
const certified = whenSharedCatalogs(() =>
  [...loadCatalog(sharedCatalog('certified-operators-v4.18')).packages.values()].map((p) =>
    summarizePackage(p, { name: 'certified', namespace: 'openshift-marketplace' }),
  ),
);

describe('summarizePackage', () => {
  test('reads the default head: display name, provider, capability, categories, modes, version', () => {
    const pg = byName.get('pgpilot')!;
    assert.equal(pg.displayName, 'PgPilot');
    assert.equal(pg.provider, 'Harbor Lane Data');
    assert.equal(pg.capability, 'Auto Pilot');
    assert.deepEqual(pg.categories, ['Database']);
    assert.equal(pg.defaultChannel, 'stable');
    assert.equal(pg.headVersion, '1.4.0');
    assert.deepEqual(pg.installModes, ['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace']);
    assert.deepEqual(pg.infrastructureFeatures, ['Disconnected', 'Proxy-aware']);
    assert.ok(pg.shortDescription.length > 0 && pg.shortDescription.length <= 221);
  });

  test('flags what the hub filters on: non-standalone, arch, deprecation, valid subscription', () => {
    assert.equal(byName.get('tenant-core')!.nonStandalone, true);
    assert.deepEqual(byName.get('metricsmith')!.arch, ['arm64']);
    assert.match(byName.get('flagpole')!.deprecation ?? '', /no longer maintained/);
    assert.deepEqual(byName.get('vaultkeeper')!.validSubscription, [
      'VaultKeeper Enterprise',
      'Northgate Platform Plus',
    ]);
  });

  test(
    'every package of the real certified catalog summarises without throwing, with a display name',
    needsSharedCatalogs,
    () => {
      assert.equal(certified.length, 59);
      assert.ok(certified.every((s) => s.displayName.length > 0));
      // certified-operators-v4.18/cloud-native-postgresql/catalog.yaml: olm.csv.metadata provider "name: EDB" (e.g. line 1440), defaultChannel fast
      const cnp = certified.find((s) => s.name === 'cloud-native-postgresql')!;
      assert.equal(cnp.defaultChannel, 'fast');
      assert.equal(cnp.provider, 'EDB');
    },
  );

  test('says whether the package has an icon, so the hub asks only for icons that exist', needsSharedCatalogs, () => {
    // certified-operators-v4.18/kurrentdb-operator: no `icon` on its olm.package and no base64data anywhere;
    // cloud-native-postgresql/catalog.yaml line 3: `icon:` with data.
    assert.equal(certified.find((s) => s.name === 'kurrentdb-operator')!.hasIcon, false);
    assert.equal(certified.find((s) => s.name === 'cloud-native-postgresql')!.hasIcon, true);
    assert.equal(byName.get('pgpilot')!.hasIcon, true);
  });
});

describe('searchPackages', () => {
  test('name matches rank above keyword and description matches', () => {
    const hits = searchPackages(demo, 'gateway');
    assert.deepEqual(
      hits
        .slice(0, 2)
        .map((h) => h.summary.name)
        .sort(),
      ['gatewise', 'routekit'],
    );
    assert.equal(searchPackages(demo, 'pgpilot')[0]!.summary.name, 'pgpilot');
    assert.equal(searchPackages(demo, 'postgres')[0]!.summary.name, 'pgpilot', 'by keyword');
  });

  test('every term must match; no terms lists everything by display name', () => {
    assert.deepEqual(
      searchPackages(demo, 'cache redis').map((h) => h.summary.name),
      ['cachely'],
    );
    assert.deepEqual(searchPackages(demo, 'cache nosuchword'), []);
    assert.equal(searchPackages(demo, '').length, 13);
  });

  test('on the real catalog', needsSharedCatalogs, () => {
    const hits = searchPackages(certified, 'postgres').map((h) => h.summary.name);
    assert.ok(hits.includes('cloud-native-postgresql') && hits.includes('crunchy-postgres-operator'), hits.join(', '));
  });
});
