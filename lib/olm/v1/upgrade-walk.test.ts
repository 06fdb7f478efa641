// The walk OLM v1 takes from an installed bundle: each resolution picks the highest-versioned
// successor (operator-controller resolve/catalog.go sorts by version, highest first, after the
// successor filter of catalogmetadata/filter/successors.go: replaces, skips, skipRange, one hop).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChannelEntry, FbcBundle, FbcChannel } from '../fbc/types';
import { v1UpgradeWalk } from './upgrade-walk';
import { parseVersionConstraints, type VersionConstraints } from './version-range';

const PKG = 'pkg';
const name = (v: string) => `${PKG}.v${v}`;
const bundle = (v: string): FbcBundle => ({
  schema: 'olm.bundle',
  package: PKG,
  name: name(v),
  properties: [{ type: 'olm.package', value: { packageName: PKG, version: v } }],
});
const channel = (entries: ChannelEntry[]): FbcChannel => ({
  schema: 'olm.channel',
  package: PKG,
  name: 'stable',
  entries,
});
const installed = (v: string) => ({ name: name(v), version: v });
const range = (s: string) => parseVersionConstraints(s) as VersionConstraints;

const chain = channel([
  { name: name('1.0.0') },
  { name: name('1.1.0'), replaces: name('1.0.0') },
  { name: name('1.2.0'), replaces: name('1.1.0') },
]);
const bundles = ['1.0.0', '1.1.0', '1.2.0'].map(bundle);

test('a replaces chain is walked one bundle at a time to the highest version', () => {
  const walk = v1UpgradeWalk(installed('1.0.0'), [chain], bundles);
  assert.deepEqual(
    walk.steps.map((s) => s.to),
    [name('1.1.0'), name('1.2.0')],
  );
  assert.deepEqual(walk.head, { name: name('1.2.0'), version: '1.2.0' });
  assert.equal(walk.reachesHead, true);
});

test('a skipRange covering the installed version is taken in one step, as the highest successor', () => {
  const ch = channel([
    { name: name('1.0.0') },
    { name: name('1.1.0'), replaces: name('1.0.0') },
    { name: name('1.2.0'), replaces: name('1.1.0'), skipRange: '<1.2.0' },
  ]);
  const walk = v1UpgradeWalk(installed('1.0.0'), [ch], bundles);
  assert.deepEqual(
    walk.steps.map((s) => s.to),
    [name('1.2.0')],
  );
});

test('a version with no successor is stranded short of the head', () => {
  const ch = channel([{ name: name('1.0.0') }, { name: name('1.2.0') }]);
  const walk = v1UpgradeWalk(installed('1.0.0'), [ch], bundles);
  assert.deepEqual(walk.steps, []);
  assert.equal(walk.reachesHead, false);
  assert.equal(walk.head?.version, '1.2.0');
});

test('a version constraint keeps every step and the head inside it', () => {
  const walk = v1UpgradeWalk(installed('1.0.0'), [chain], bundles, range('<1.2.0'));
  assert.deepEqual(
    walk.steps.map((s) => s.to),
    [name('1.1.0')],
  );
  assert.equal(walk.head?.version, '1.1.0');
  assert.equal(walk.reachesHead, true);
});

test('an installed version that is not semver is the error operator-controller gives', () => {
  const walk = v1UpgradeWalk({ name: name('x'), version: 'one' }, [chain], bundles);
  assert.match(walk.error ?? '', /Invalid Semantic Version/);
});
