import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { catalogFromTexts } from '../fbc/catalog';
import { dependencyInstalls, satisfiesRequiredRanges, unmetDependencies } from './dependencies';

function bundle(pkg: string, v: string, extra = '') {
  return `schema: olm.bundle\npackage: ${pkg}\nname: ${pkg}.v${v}\nproperties:\n  - {type: olm.package, value: {packageName: ${pkg}, version: ${v}}}${extra}`;
}
const cat = catalogFromTexts({
  'c.yaml': [
    'schema: olm.package\nname: certs\ndefaultChannel: stable',
    'schema: olm.channel\npackage: certs\nname: stable\nentries:\n  - name: certs.v1.0.0\n  - {name: certs.v1.1.0, replaces: certs.v1.0.0}\n  - {name: certs.v2.0.0, replaces: certs.v1.1.0}',
    bundle(
      'certs',
      '1.0.0',
      '\n  - {type: olm.gvk, value: {group: certs.example.com, version: v1, kind: Certificate}}',
    ),
    bundle(
      'certs',
      '1.1.0',
      '\n  - {type: olm.gvk, value: {group: certs.example.com, version: v1, kind: Certificate}}',
    ),
    bundle(
      'certs',
      '2.0.0',
      '\n  - {type: olm.gvk, value: {group: certs.example.com, version: v1, kind: Certificate}}',
    ),
    'schema: olm.package\nname: app\ndefaultChannel: stable',
    'schema: olm.channel\npackage: app\nname: stable\nentries:\n  - name: app.v1.0.0',
    bundle(
      'app',
      '1.0.0',
      '\n  - {type: olm.gvk.required, value: {group: certs.example.com, version: v1, kind: Certificate}}\n  - {type: olm.package.required, value: {packageName: certs, versionRange: ">=1.0.0 <2.0.0"}}\n  - {type: olm.package.required, value: {packageName: ghost, versionRange: ">=1.0.0"}}',
    ),
  ].join('\n---\n'),
});
const sources = [{ tag: 'demo', packages: [...cat.packages.values()] }];
const app = cat.packages.get('app')!.bundles.get('app.v1.0.0')!;

describe('dependencies', () => {
  test('unmet: a package no catalog has, in the resolver words', () => {
    assert.deepEqual(unmetDependencies(app, [{ tag: 'demo', packages: cat.packages.values() }], []), [
      'bundle app.v1.0.0 requires an operator with package: ghost and with version in range: >=1.0.0',
    ]);
  });

  test('installs: the newest entry within the range, which also provides the required API', () => {
    const deps = dependencyInstalls(app, [{ tag: 'demo', packages: [...cat.packages.values()] }], [], new Set());
    assert.deepEqual(
      deps.map((d) => [d.bundle.name, d.source]),
      [['certs.v1.1.0', 'demo']],
      'not the head 2.0.0, which is outside >=1.0.0 <2.0.0',
    );
  });

  test('installs: an API alone takes the provider package head', () => {
    const onlyApi = { ...app, requiredPackages: [] };
    assert.deepEqual(
      dependencyInstalls(onlyApi, sources, [], new Set()).map((d) => d.bundle.name),
      ['certs.v2.0.0'],
    );
    assert.deepEqual(
      dependencyInstalls(
        onlyApi,
        sources,
        [{ group: 'certs.example.com', version: 'v1', kind: 'Certificate' }],
        new Set(),
      ),
      [],
      'nothing when the namespace provides it',
    );
  });

  test('an upgrade outside a range an installed operator requires is not allowed', () => {
    const required = [{ packageName: 'certs', versionRange: '>=1.0.0 <2.0.0' }];
    assert.equal(satisfiesRequiredRanges('certs', '1.1.0', required), true);
    assert.equal(satisfiesRequiredRanges('certs', '2.0.0', required), false);
    assert.equal(satisfiesRequiredRanges('other', '9.0.0', required), true);
  });
});
