// OLM v1 resolution against a package like the one operator-controller v1.2.0's own resolver tests
// build (internal/operator-controller/resolve/catalog_test.go, genPackage: channels alpha/beta/gamma,
// bundles 0.1.0 … 3.0.0 with skipRanges, 1.0.0 and 1.0.1 deprecated). Each test names the Go test
// its expectation comes from.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DeclarativeConfig, FbcBundle } from '../fbc/types';
import { resolveBundle, type CatalogPackage, type ResolveRequest } from './resolve';

const PKG = 'pkg-a';
const name = (v: string) => `${PKG}.v${v}`;
const bundle = (v: string, extra: FbcBundle['properties'] = []): FbcBundle => ({
  schema: 'olm.bundle',
  package: PKG,
  name: name(v),
  properties: [{ type: 'olm.package', value: { packageName: PKG, version: v } }, ...extra],
});

function pkg(): DeclarativeConfig {
  const ch = (n: string, entries: { name: string; skipRange?: string }[]) => ({
    schema: 'olm.channel' as const,
    package: PKG,
    name: n,
    entries,
  });
  return {
    packages: [{ schema: 'olm.package', name: PKG }],
    channels: [
      ch('alpha', [
        { name: name('0.1.0') },
        { name: name('1.0.0'), skipRange: '<1.0.0' },
        { name: name('1.0.1'), skipRange: '<1.0.1' },
        { name: name('1.0.2'), skipRange: '<1.0.2' },
        { name: name('2.0.0'), skipRange: '>=1.0.0 <2.0.0' },
      ]),
      ch('beta', [{ name: name('0.1.0') }, { name: name('1.0.2'), skipRange: '<1.0.2' }]),
      ch('gamma', [{ name: name('3.0.0'), skipRange: '>=2.0.0 <3.0.0' }]),
    ],
    bundles: ['0.1.0', '1.0.0', '1.0.1', '1.0.2', '2.0.0', '3.0.0'].map((v) => bundle(v)),
    deprecations: [
      {
        schema: 'olm.deprecations',
        package: PKG,
        entries: ['1.0.0', '1.0.1'].map((v) => ({
          reference: { schema: 'olm.bundle' as const, name: name(v) },
          message: `bundle ${name(v)} is deprecated`,
        })),
      },
    ],
    others: [],
  };
}

const empty = (): DeclarativeConfig => ({ packages: [], channels: [], bundles: [], deprecations: [], others: [] });
const catalogs = (fbc = pkg()): CatalogPackage[] => [
  { catalog: 'a', priority: 0, fbc: empty() },
  { catalog: 'b', priority: 0, fbc: empty() },
  { catalog: 'c', priority: 0, fbc },
];
const resolve = (req: Partial<ResolveRequest>, cats = catalogs()) => resolveBundle({ packageName: PKG, ...req }, cats);
const picked = (r: ReturnType<typeof resolve>) => ('error' in r ? r.error : `${r.bundle.name} ${r.version}`);

test('no channels: the highest version of any channel (TestPackageExists)', () => {
  const r = resolve({});
  assert.equal(picked(r), `${name('3.0.0')} 3.0.0`);
  assert.ok(!('error' in r) && r.deprecation?.entries.length === 2, 'the package deprecation comes back');
});

test('a version range, a channel, and both (TestVersionExists, TestChannelExists, TestChannelExistsButNotVersion)', () => {
  assert.equal(picked(resolve({ version: '>=1.0.0 <2.0.0' })), `${name('1.0.2')} 1.0.2`);
  assert.equal(picked(resolve({ channels: ['beta'] })), `${name('1.0.2')} 1.0.2`);
  assert.equal(
    picked(resolve({ channels: ['beta'], version: '3.0.0' })),
    `no bundles found for package "${PKG}" matching version "3.0.0" in channels [beta]`,
  );
  assert.equal(picked(resolve({ channels: ['stable'] })), `no bundles found for package "${PKG}" in channels [stable]`);
});

test('a package in no catalog, and an unreadable range (TestPackageDoesNotExist, TestInvalidClusterExtensionVersionRange)', () => {
  assert.equal(picked(resolve({}, catalogs(empty()))), `no bundles found for package "${PKG}"`);
  assert.equal(
    picked(resolve({ version: 'foobar' })),
    'desired version range "foobar" is invalid: improper constraint: foobar',
  );
});

test('a catalog that cannot be read stops resolution (TestErrorGettingPackage)', () => {
  const r = resolve({}, [{ catalog: 'a', priority: 0, fbc: { error: 'catalog "a" is not being served' } }]);
  assert.equal(
    picked(r),
    `error walking catalogs: error getting package "${PKG}" from catalog "a": catalog "a" is not being served`,
  );
});

test('non-deprecated bundles win over higher deprecated ones; deprecated ones still resolve alone (TestPreferNonDeprecated, TestAcceptDeprecated)', () => {
  assert.equal(picked(resolve({ version: '>=0.1.0 <=1.0.0' })), `${name('0.1.0')} 0.1.0`);
  assert.equal(picked(resolve({ version: '>=1.0.0 <=1.0.1' })), `${name('1.0.1')} 1.0.1`);
});

test('CatalogProvided upgrades follow skipRange one hop; a range off the edges fails (TestUpgradeFoundLegacy, TestUpgradeNotFoundLegacy)', () => {
  const installed = { name: name('0.1.0'), version: '0.1.0' };
  assert.equal(picked(resolve({ installed })), `${name('1.0.2')} 1.0.2`);
  assert.equal(
    picked(resolve({ installed, version: '<1.0.0 >=2.0.0' })),
    `error upgrading from currently installed version "0.1.0": no bundles found for package "${PKG}" matching version "<1.0.0 >=2.0.0"`,
  );
});

test('SelfCertified allows a downgrade within the range (TestDowngradeFound, TestDowngradeNotFound)', () => {
  const installed = { name: name('1.0.2'), version: '1.0.2' };
  assert.equal(
    picked(resolve({ installed, version: '<1.0.2', upgradeConstraintPolicy: 'SelfCertified' })),
    `${name('0.1.0')} 0.1.0`,
  );
  assert.equal(
    picked(resolve({ installed, version: '>0.1.0 <1.0.0', upgradeConstraintPolicy: 'SelfCertified' })),
    `error upgrading from currently installed version "1.0.2": no bundles found for package "${PKG}" matching version ">0.1.0 <1.0.0"`,
  );
  // Under CatalogProvided the same request has no edge down from 1.0.2: only 1.0.2 itself remains.
  assert.equal(picked(resolve({ installed, version: '<=1.0.2' })), `${name('1.0.2')} 1.0.2`);
});

test('priority breaks a tie only between different priorities; equal ones are ambiguous (TestUnequalPriority, TestMultiplePriority)', () => {
  const two: CatalogPackage[] = [
    { catalog: 'b', priority: 0, fbc: pkg() },
    { catalog: 'a', priority: 1, fbc: { ...pkg(), bundles: [bundle('2.0.0')] } },
  ];
  const r = resolve({}, two);
  assert.ok(!('error' in r));
  assert.equal(r.catalog, 'a');
  assert.equal(r.version, '2.0.0');
  // Non-deprecated beats deprecated before priority counts (resolve/catalog.go, the cross-catalog step).
  two[1]!.fbc = { ...pkg(), bundles: [bundle('1.0.0')] };
  const d = resolve({}, two);
  assert.ok(!('error' in d));
  assert.equal(d.catalog, 'b');
  const three: CatalogPackage[] = ['c', 'a', 'b'].map((c) => ({ catalog: c, priority: 0, fbc: pkg() }));
  assert.equal(
    picked(resolve({}, three)),
    `found bundles for package "${PKG}" in multiple catalogs with the same priority [a b c]`,
  );
});

test('a bundle declaring a dependency is refused after it wins (resolve/validation.go NoDependencyValidation)', () => {
  const fbc = pkg();
  fbc.bundles = [bundle('3.0.0', [{ type: 'olm.gvk.required', value: { group: 'x', version: 'v1', kind: 'Y' } }])];
  assert.equal(
    picked(resolve({}, catalogs(fbc))),
    `validating bundle "${name('3.0.0')}": bundle "${name('3.0.0')}" has a dependency declared via property "olm.gvk.required" which is currently not supported`,
  );
});
