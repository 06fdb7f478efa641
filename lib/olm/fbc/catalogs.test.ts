// The real catalogs in ../shared/catalogs, loaded as the sandbox loads them. Every expected value
// below was read by hand from those files (see the comment beside each).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { describeProblems } from './catalog';
import { loadCatalog } from './load-catalog';
import { bundleCsv } from './model';
import { needsSharedCatalogs, sharedCatalogs } from '../../testing/shared-catalogs';

const catalogs = sharedCatalogs;

describe('certified-operators-v4.18', needsSharedCatalogs, () => {
  const cat = loadCatalog(join(catalogs, 'certified-operators-v4.18'));

  test('loads with no problem: 59 packages, 213 channels, 739 bundles', () => {
    assert.deepEqual(describeProblems(cat), []);
    assert.equal(cat.packages.size, 59);
    const pkgs = [...cat.packages.values()];
    assert.equal(
      pkgs.reduce((n, p) => n + p.channels.size, 0),
      213,
    );
    assert.equal(
      pkgs.reduce((n, p) => n + p.bundles.size, 0),
      739,
    );
  });

  test('default channels as written in the package blobs', () => {
    // cloud-native-postgresql/catalog.yaml line 2, gpu-operator-certified/catalog.yaml line 2
    assert.equal(cat.packages.get('cloud-native-postgresql')?.defaultChannel, 'fast');
    assert.equal(cat.packages.get('gpu-operator-certified')?.defaultChannel, 'v26.3');
    assert.equal(cat.packages.get('gpu-operator-certified')?.channels.size, 14);
  });

  test('pg4k-pgd: channels, skips and an olm.package.required range with || and a space after <', () => {
    const pgd = cat.packages.get('pg4k-pgd')!;
    assert.equal(pgd.defaultChannel, 'stable');
    const stable = pgd.channels.get('stable')!;
    assert.deepEqual(stable.entries.find((e) => e.name === 'pg4k-pgd.v1.1.1')?.skips, [
      'pg4k-pgd.v1.1.0',
      'pg4k-pgd.v1.0.1',
    ]);
    const v111 = pgd.bundles.get('pg4k-pgd.v1.1.1')!;
    assert.ok(
      v111.requiredPackages.some(
        (r) =>
          r.packageName === 'cloud-native-postgresql' && r.versionRange === '>=1.22.8 < 1.23.0 || >=1.25.0 <1.26.0',
      ),
    );
  });

  test('eda-k8s-operator mixes full manifests (5.0.x) and CSV metadata (6.0.x)', () => {
    const eda = cat.packages.get('eda-k8s-operator')!;
    const v500 = eda.bundles.get('eda-openshift-operator.v5.0.0')!;
    assert.equal(v500.bundleObjectCount, 12);
    assert.equal(bundleCsv(v500)?.kind, 'ClusterServiceVersion');
    const v600 = eda.bundles.get('eda-openshift-operator.v6.0.0')!;
    assert.equal(v600.bundleObjectCount, 0);
    assert.ok(v600.csvMetadata);
  });

  test('packages without an icon have none; the others have a media type', () => {
    assert.equal(cat.packages.get('kurrentdb-operator')?.icon, undefined);
    assert.equal(cat.packages.get('k8s-triliovault')?.icon?.mediatype, 'image/jpeg');
  });
});

describe('okderators', needsSharedCatalogs, () => {
  const cat = loadCatalog(join(catalogs, 'okderators'));

  test('16 packages, one alpha channel each, no problem', () => {
    assert.deepEqual(describeProblems(cat), []);
    assert.equal(cat.packages.size, 16);
    for (const p of cat.packages.values())
      assert.deepEqual([p.defaultChannel, [...p.channels.keys()]], ['alpha', ['alpha']], p.name);
  });

  test('icons with `base64data: null` and a `type` key are no icon at all', () => {
    // loki-operator/loki-operator.yaml: icon: {base64data: (empty), type: image/png}
    assert.equal(cat.packages.get('loki-operator')?.icon, undefined);
  });

  test('olm.maxOpenShiftVersion written as a YAML number and as a string', () => {
    // loki-operator.v5.9.0-2024-05-06-220335.yaml line 47: `value: 4.17`
    assert.equal(
      cat.packages.get('loki-operator')?.bundles.get('loki-operator.v5.9.0-2024-05-06-220335')?.maxOpenShiftVersion,
      '4.17',
    );
    const odf = [...cat.packages.get('odf-operator')!.bundles.values()];
    assert.ok(odf.some((b) => b.maxOpenShiftVersion === '4.16'));
  });

  test('bundle names may differ from the package name', () => {
    assert.ok(cat.packages.get('cluster-logging')?.bundles.has('clusterlogging.v5.9.0-2024-05-05-192913'));
  });
});

describe('gatekeeper-operator-product-v4.20', needsSharedCatalogs, () => {
  const cat = loadCatalog(join(catalogs, 'gatekeeper-operator-product-v4.20'));
  const gk = cat.packages.get('gatekeeper-operator-product')!;

  test('one package, seven channels, eighteen bundles, default stable', () => {
    assert.deepEqual(describeProblems(cat), []);
    assert.equal(gk.defaultChannel, 'stable');
    assert.deepEqual([...gk.channels.keys()].sort(), ['3.15', '3.17', '3.18', '3.19', '3.20', '3.21', 'stable']);
    assert.equal(gk.bundles.size, 18);
  });

  test('versions with build metadata, and a bundle in several channels', () => {
    const b = gk.bundles.get('gatekeeper-operator-product.v3.15.1-0.1725401534.p')!;
    assert.equal(b.version, '3.15.1+0.1725401534.p');
    assert.ok(b.channels.includes('3.15') && b.channels.includes('stable'));
  });
});
