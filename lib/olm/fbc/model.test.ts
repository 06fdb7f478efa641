import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bundleCsv, bundleObjects, buildModel } from './model';
import { parseFbcText, sortBlobs } from './parse';

function model(yamlText: string) {
  const { config, origins } = sortBlobs(parseFbcText('catalog.yaml', yamlText).blobs);
  return buildModel(config, origins);
}

const csv = {
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'ClusterServiceVersion',
  metadata: { name: 'redis.v1.0.0' },
  spec: { displayName: 'Rédis' },
};
const b64 = Buffer.from(JSON.stringify(csv), 'utf8').toString('base64');

const catalog = `
schema: olm.package
name: redis
defaultChannel: stable
description: A cache
icon:
  base64data: PHN2Zy8+
  type: image/svg+xml
---
schema: olm.channel
package: redis
name: stable
entries:
  - name: redis.v1.0.0
  - name: redis.v1.1.0
    replaces: redis.v1.0.0
    skipRange: '>=0.9.0 <1.1.0'
---
schema: olm.channel
package: redis
name: fast
entries:
  - name: redis.v1.1.0
---
schema: olm.bundle
package: redis
name: redis.v1.0.0
image: quay.example.com/redis:1.0.0
properties:
  - type: olm.package
    value: {packageName: redis, version: 1.0.0}
  - type: olm.gvk
    value: {group: cache.example.com, version: v1, kind: Redis}
  - type: olm.bundle.object
    value: {data: ${b64}}
---
schema: olm.bundle
package: redis
name: redis.v1.1.0
properties:
  - type: olm.package
    value: {packageName: redis, version: 1.1.0}
  - type: olm.gvk.required
    value: {group: cert.example.com, version: v1, kind: Issuer}
  - type: olm.package.required
    value: {packageName: certs, versionRange: '>=1.0.0 <2.0.0'}
  - type: olm.maxOpenShiftVersion
    value: 4.17
  - type: olm.csv.metadata
    value: {displayName: Redis, annotations: {capabilities: Basic Install}}
  - type: olm.deprecated
    value: {}
---
schema: olm.deprecations
package: redis
entries:
  - reference: {schema: olm.package}
    message: redis is replaced by valkey
  - reference: {schema: olm.channel, name: fast}
    message: fast is frozen
  - reference: {schema: olm.bundle, name: redis.v1.0.0}
    message: CVE-2026-0001
---
schema: vendor.example.com/notes
package: redis
text: kept
`;

describe('buildModel', () => {
  const { model: m, problems } = model(catalog);
  const redis = m.packages.get('redis')!;

  test('a package with its channels, bundles and no problems', () => {
    assert.deepEqual(problems, []);
    assert.equal(redis.defaultChannel, 'stable');
    assert.equal(redis.description, 'A cache');
    assert.deepEqual([...redis.channels.keys()], ['stable', 'fast']);
    assert.deepEqual(redis.channels.get('stable')?.entries[1], {
      name: 'redis.v1.1.0',
      replaces: 'redis.v1.0.0',
      skipRange: '>=0.9.0 <1.1.0',
    });
  });

  test('an icon written with `type` instead of `mediatype` is read', () => {
    assert.deepEqual(redis.icon, { base64data: 'PHN2Zy8+', mediatype: 'image/svg+xml' });
  });

  test('bundle properties are decoded', () => {
    const v100 = redis.bundles.get('redis.v1.0.0')!;
    const v110 = redis.bundles.get('redis.v1.1.0')!;
    assert.equal(v100.version, '1.0.0');
    assert.equal(v100.image, 'quay.example.com/redis:1.0.0');
    assert.deepEqual(v100.providedApis, [{ group: 'cache.example.com', version: 'v1', kind: 'Redis' }]);
    assert.deepEqual(v110.requiredApis, [{ group: 'cert.example.com', version: 'v1', kind: 'Issuer' }]);
    assert.deepEqual(v110.requiredPackages, [{ packageName: 'certs', versionRange: '>=1.0.0 <2.0.0' }]);
    assert.equal(v110.maxOpenShiftVersion, '4.17', 'a YAML number becomes the string the catalog author meant');
    assert.equal(v110.csvMetadata?.displayName, 'Redis');
    assert.equal(v110.legacyDeprecated, true);
    assert.deepEqual(v100.channels, ['stable']);
    assert.deepEqual(v110.channels, ['fast', 'stable']);
  });

  test('olm.bundle.object is decoded on demand, UTF-8 intact', () => {
    const v100 = redis.bundles.get('redis.v1.0.0')!;
    assert.equal(v100.bundleObjectCount, 1);
    assert.equal(bundleObjects(v100).length, 1);
    assert.equal((bundleCsv(v100)?.spec as { displayName: string }).displayName, 'Rédis');
  });

  test('deprecations attach to package, channel and bundle', () => {
    assert.equal(redis.deprecation, 'redis is replaced by valkey');
    assert.equal(redis.channels.get('fast')?.deprecation, 'fast is frozen');
    assert.equal(redis.bundles.get('redis.v1.0.0')?.deprecation, 'CVE-2026-0001');
  });

  test('unknown schemas are kept with their package', () => {
    assert.equal(redis.others[0]?.schema, 'vendor.example.com/notes');
  });

  test('duplicates and blobs of unknown packages are problems with their origin', () => {
    const { problems: p } = model(`
schema: olm.package
name: a
---
schema: olm.package
name: a
---
schema: olm.channel
package: ghost
name: stable
entries: []
---
schema: olm.deprecations
package: a
entries:
  - reference: {schema: olm.bundle, name: a.v9}
    message: gone
`);
    assert.deepEqual(
      p.map((x) => x.message),
      [
        'duplicate package "a"',
        'channel "stable" refers to package "ghost", which has no olm.package blob',
        'olm.deprecations refers to bundle "a.v9", which the package does not have',
      ],
    );
    assert.deepEqual(p[0]?.origin, { file: 'catalog.yaml', index: 2 });
  });
});
