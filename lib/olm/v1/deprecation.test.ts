// Deprecation conditions as operator-controller v1.2.0's SetDeprecationStatus writes them
// (controllers/clusterextension_controller.go; cases after clusterextension_controller_test.go
// TestSetDeprecationStatus): "\n"-prefixed messages, channel entries only for channels in spec.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FbcDeprecations } from '../fbc/types';
import { deprecationConditions } from './deprecation';

const dep: FbcDeprecations = {
  schema: 'olm.deprecations',
  package: 'p',
  entries: [
    { reference: { schema: 'olm.package' }, message: 'package gone' },
    { reference: { schema: 'olm.channel', name: 'alpha' }, message: 'alpha gone' },
    { reference: { schema: 'olm.bundle', name: 'p.v1.0.0' }, message: 'bundle gone' },
  ],
};

test('everything deprecated: True with each message after a newline, Deprecated joined by ;', () => {
  const got = deprecationConditions('p.v1.0.0', ['alpha'], dep);
  assert.deepEqual(
    got.map((c) => [c.type, c.status, c.reason, c.message]),
    [
      ['Deprecated', 'True', 'Deprecated', 'package gone;alpha gone;bundle gone'],
      ['PackageDeprecated', 'True', 'Deprecated', '\npackage gone'],
      ['ChannelDeprecated', 'True', 'Deprecated', '\nalpha gone'],
      ['BundleDeprecated', 'True', 'Deprecated', '\nbundle gone'],
    ],
  );
});

test('without channels in spec a deprecated channel is not reported; other bundles are not', () => {
  const got = deprecationConditions('p.v2.0.0', [], dep);
  assert.deepEqual(
    got.map((c) => [c.type, c.status, c.message]),
    [
      ['Deprecated', 'True', 'package gone'],
      ['PackageDeprecated', 'True', '\npackage gone'],
      ['ChannelDeprecated', 'False', ''],
      ['BundleDeprecated', 'False', ''],
    ],
  );
  assert.ok(deprecationConditions('x', [], undefined).every((c) => c.status === 'False' && c.reason === 'Deprecated'));
});
