import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RegistryBundleMessage, RegistryPackageMessage } from '../olm/fbc/from-registry';
import { keepHeadMetadataOnly } from './head-metadata';

const bundle = (pkg: string, csvName: string, channelName: string): RegistryBundleMessage => ({
  csvName,
  packageName: pkg,
  channelName,
  bundlePath: `quay.example.com/${csvName}`,
  version: csvName.split('.v')[1]!,
  skipRange: '',
  replaces: '',
  skips: [],
  properties: [
    { type: 'olm.package', value: JSON.stringify({ packageName: pkg, version: csvName.split('.v')[1] }) },
    { type: 'olm.csv.metadata', value: JSON.stringify({ displayName: csvName }) },
  ],
});

test('only channel heads keep their CSV metadata; everything else stays', () => {
  const packages: RegistryPackageMessage[] = [
    {
      name: 'a',
      defaultChannelName: 'stable',
      channels: [
        { name: 'stable', csvName: 'a.v2.0.0' },
        { name: 'fast', csvName: 'a.v3.0.0' },
      ],
    },
  ];
  const bundles = [
    bundle('a', 'a.v1.0.0', 'stable'),
    bundle('a', 'a.v2.0.0', 'stable'),
    bundle('a', 'a.v2.0.0', 'fast'),
    bundle('a', 'a.v3.0.0', 'fast'),
    bundle('b', 'a.v1.0.0', 'stable'),
  ];
  assert.equal(keepHeadMetadataOnly(packages, bundles), 2, 'a.v1.0.0, and the same name in another package');
  const types = bundles.map((b) => b.properties.map((p) => p.type).join(','));
  assert.deepEqual(types, [
    'olm.package',
    'olm.package,olm.csv.metadata',
    'olm.package,olm.csv.metadata',
    'olm.package,olm.csv.metadata',
    'olm.package',
  ]);
});
