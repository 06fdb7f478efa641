// The versions an installed extension may move to, with expectations from operator-controller
// v1.2.0 (catalogmetadata/filter/successors.go: replaces, skips, skipRange, one hop; resolve/catalog.go:
// SelfCertified checks no edge; only the channels spec names count).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DeclarativeConfig } from '../fbc/types';
import { versionOptions } from './extension-versions';

const bundle = (v: string) => ({
  schema: 'olm.bundle' as const,
  package: 'p',
  name: `p.v${v}`,
  properties: [{ type: 'olm.package', value: { packageName: 'p', version: v } }],
});
const fbc: DeclarativeConfig = {
  packages: [{ schema: 'olm.package', name: 'p' }],
  channels: [
    {
      schema: 'olm.channel',
      package: 'p',
      name: 'stable',
      entries: [
        { name: 'p.v1.0.0' },
        { name: 'p.v1.1.0', replaces: 'p.v1.0.0' },
        { name: 'p.v1.2.0', replaces: 'p.v1.1.0' },
        { name: 'p.v1.3.0', replaces: 'p.v1.2.0', skips: ['p.v1.0.0'] },
      ],
    },
    { schema: 'olm.channel', package: 'p', name: 'fast', entries: [{ name: 'p.v2.0.0', skipRange: '>=1.0.0 <2.0.0' }] },
  ],
  bundles: ['1.0.0', '1.1.0', '1.2.0', '1.3.0', '2.0.0'].map(bundle),
  deprecations: [],
  others: [],
};
const installed = { name: 'p.v1.0.0', version: '1.0.0' };
const reach = (channels: string[], policy: 'CatalogProvided' | 'SelfCertified', from = installed) =>
  Object.fromEntries(
    versionOptions(from, [{ catalog: 'c', fbc }], channels, policy).map((o) => [
      o.version,
      o.reach.kind === 'path' ? o.reach.path.join('>') : o.reach.kind,
    ]),
  );

test('one hop by replaces or skips is next; longer walks are the shortest path; other channels are not there', () => {
  assert.deepEqual(reach(['stable'], 'CatalogProvided'), {
    '1.3.0': 'next',
    '1.2.0': '1.1.0>1.2.0',
    '1.1.0': 'next',
    '1.0.0': 'installed',
  });
});

test('without channels every channel’s bundles and edges count: the skipRange reaches 2.0.0 in one hop', () => {
  assert.equal(reach([], 'CatalogProvided')['2.0.0'], 'next');
});

test('an older version is refused under CatalogProvided and unchecked under SelfCertified', () => {
  const from = { name: 'p.v1.2.0', version: '1.2.0' };
  assert.equal(reach(['stable'], 'CatalogProvided', from)['1.0.0'], 'refused');
  assert.equal(reach(['stable'], 'SelfCertified', from)['1.0.0'], 'unchecked');
});
