// Infrastructure features as OpenShift's operator metadata documents them (the
// features.operators.openshift.io/* annotations, "true" or "false"; the deprecated
// operators.openshift.io/infrastructure-features list), and over a real catalog.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { channelHeads } from '../graph/channel-problems';
import { loadCatalog } from '../fbc/load-catalog';
import { csvOfBundle } from './csv-description';
import { infrastructureFeatures } from './infrastructure-features';
import { needsSharedCatalogs, sharedCatalog } from '../../testing/shared-catalogs';

test('the new annotations: "true" counts, "false" does not', () => {
  assert.deepEqual(
    infrastructureFeatures({
      'features.operators.openshift.io/disconnected': 'true',
      'features.operators.openshift.io/fips-compliant': 'true',
      'features.operators.openshift.io/proxy-aware': 'false',
      'features.operators.openshift.io/token-auth-aws': 'true',
      'features.operators.openshift.io/csi': 'maybe',
    }),
    ['Disconnected', 'FIPS mode', 'Short-lived tokens (AWS STS)'],
  );
});

test('the older list, and the newer form winning where both speak', () => {
  assert.deepEqual(
    infrastructureFeatures({
      'operators.openshift.io/infrastructure-features': '["disconnected", "fips", "proxy-aware"]',
    }),
    ['Disconnected', 'FIPS mode', 'Proxy-aware'],
  );
  assert.deepEqual(
    infrastructureFeatures({
      'operators.openshift.io/infrastructure-features': '["disconnected", "fips"]',
      'features.operators.openshift.io/fips-compliant': 'false',
      'features.operators.openshift.io/tls-profiles': 'true',
    }),
    ['Disconnected', 'TLS profiles'],
  );
  assert.deepEqual(infrastructureFeatures({ 'operators.openshift.io/infrastructure-features': 'not json' }), []);
  assert.deepEqual(infrastructureFeatures(undefined), []);
});

const certified = sharedCatalog('certified-operators-v4.18');

test('the certified catalog: packages whose default head names a feature, by either form', needsSharedCatalogs, () => {
  const catalog = loadCatalog(certified);
  let legacyOnly = 0;
  let either = 0;
  let packages = 0;
  for (const pkg of catalog.packages.values()) {
    const heads = channelHeads(pkg.channels.get(pkg.defaultChannel ?? '')?.entries ?? []);
    const bundle = heads.length === 1 ? pkg.bundles.get(heads[0]!) : undefined;
    // The CSV as the catalog carries it: a bundle object, or olm.csv.metadata.
    const csv = bundle ? csvOfBundle(bundle) : undefined;
    if (!csv) continue;
    packages++;
    const ann = (csv.metadata?.annotations ?? {}) as Record<string, unknown>;
    if (
      infrastructureFeatures({
        'operators.openshift.io/infrastructure-features': ann['operators.openshift.io/infrastructure-features'],
      }).length
    )
      legacyOnly++;
    if (infrastructureFeatures(ann).length) either++;
  }
  console.log(
    `certified-operators-v4.18: ${packages} packages with a CSV; ${legacyOnly} name a feature in the older list, ${either} in either form`,
  );
  assert.ok(either > legacyOnly, `the new form adds packages (${legacyOnly} → ${either})`);
});
