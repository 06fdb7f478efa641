// The version field each choice writes, against Masterminds/semver v3.3.1 as operator-controller
// v1.2.0 reads it (constraints.go: `~1.2` is >=1.2.0 <1.3.0, `^1` is >=1.0.0 <2.0.0, pre-releases
// left out unless the constraint names one) and resolve/catalog.go's wording for a bad range.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseVersion } from '../semver/version';
import { explainChoice, versionField } from './version-choice';
import { parseVersionConstraints, satisfies } from './version-range';

const allows = (field: { version?: string } | { error: string }, v: string) => {
  assert.ok('version' in field && field.version);
  const range = parseVersionConstraints(field.version);
  assert.ok(!('error' in range));
  return satisfies(range, parseVersion(v));
};

describe('versionField', () => {
  it('leaves the field out for the latest: v1 takes any version', () => {
    assert.deepEqual(versionField({ kind: 'latest' }), {});
  });

  it('writes an exact version as it is', () => {
    assert.deepEqual(versionField({ kind: 'exact', version: '1.4.0' }), { version: '1.4.0' });
  });

  it('"this minor" is ~X.Y: patch releases of that minor only', () => {
    const f = versionField({ kind: 'minor', version: '1.4.0' });
    assert.deepEqual(f, { version: '~1.4' });
    assert.ok(allows(f, '1.4.0') && allows(f, '1.4.9'));
    assert.ok(!allows(f, '1.5.0') && !allows(f, '1.3.9'));
  });

  it('"this major" is ^X: everything below the next major, pre-releases left out', () => {
    const f = versionField({ kind: 'major', version: '1.4.0' });
    assert.deepEqual(f, { version: '^1' });
    assert.ok(allows(f, '1.0.0') && allows(f, '1.9.0'));
    assert.ok(!allows(f, '2.0.0') && !allows(f, '2.0.0-rc.1'));
    assert.match(explainChoice({ kind: 'major', version: '1.4.0' }), /^\^1: any 1\.y\.z \(>=1\.0\.0 <2\.0\.0\)/);
  });

  it('refuses a custom range in v1’s words, and keeps a valid one as typed', () => {
    assert.deepEqual(versionField({ kind: 'custom', range: 'one point two' }), {
      error: 'desired version range "one point two" is invalid: improper constraint: one point two',
    });
    assert.deepEqual(versionField({ kind: 'custom', range: '>=1.2.0, <1.5.0' }), { version: '>=1.2.0, <1.5.0' });
  });
});
