// ClusterExtension version ranges as Masterminds/semver v3.3.1 checks them; the cases are from its
// constraints_test.go (TestConstraintCheck, TestNewConstraint) with versions OLM can hold (bundle
// versions are strict SemVer), and from operator-controller's version field documentation.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseVersion } from '../semver/version';
import { parseVersionConstraints, satisfies } from './version-range';

function check(range: string, version: string): boolean {
  const r = parseVersionConstraints(range);
  if ('error' in r) throw new Error(r.error);
  return satisfies(r, parseVersion(version));
}

test('single constraints (TestConstraintCheck)', () => {
  const cases: [string, string, boolean][] = [
    ['=2.0.0', '1.2.3', false],
    ['=2.0', '2.0.1', true],
    ['4.1', '4.1.0', true],
    ['!=4.1', '4.1.1', false],
    ['!=4.1', '5.1.0-alpha.1', false],
    ['!=4.1-alpha', '4.1.0', true],
    ['<11', '11.1.0', false],
    ['<=11', '11.2.3', true],
    ['<=1.1', '1.1.1', true],
    ['>1.1', '1.1.0', false],
    ['>0', '0.0.1-alpha', false],
    ['>0.0.0-0', '0.0.0-alpha', true],
    ['>1.2.3-alpha.1', '1.2.3-alpha.2', true],
    ['>11.1', '11.1.1', false],
    ['>11.1', '11.2.1', true],
    ['>=0-0', '0.0.1-alpha', true],
    ['<0-z', '0.0.0-alpha', true],
    ['*', '1.2.3-alpha.1', false],
    ['*-0', '1.2.3-alpha.1', true],
    ['2.*', '2.1.1', true],
    ['2.1.*', '2.2.1', false],
    ['~1.2.3', '1.2.4', true],
    ['~1.2.3', '1.3.0', false],
    ['~1', '1.9.0', true],
    ['^1.2.3', '1.8.0', true],
    ['^1.2.3', '2.0.0', false],
    ['^0.2.3', '0.3.0', false],
    ['^0.0.3', '0.0.4', false],
    ['^0', '0.9.9', true],
  ];
  for (const [range, version, want] of cases) assert.equal(check(range, version), want, `${range} ∋ ${version}`);
});

test('AND by space or comma, OR by ||, build metadata ignored', () => {
  assert.equal(check('>=1.2, <2', '1.9.9'), true);
  assert.equal(check('>=1.2 <2', '2.0.0'), false);
  assert.equal(check('<1.0.0 || >=3', '3.1.0'), true);
  assert.equal(check('1.2.3', '1.2.3+build.5'), true);
});

test('unreadable ranges fail as NewConstraint does', () => {
  assert.deepEqual(parseVersionConstraints('foobar'), { error: 'improper constraint: foobar' });
  assert.deepEqual(parseVersionConstraints('>=1 ||'), { error: 'improper constraint: ' });
});
