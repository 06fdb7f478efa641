import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  compareVersions,
  formatVersion,
  parseVersion,
  parseVersionTolerant,
  SemverError,
  sortNewestFirst,
  tryParseVersion,
  tryParseVersionTolerant,
} from './version';

const v = parseVersion;

describe('parseVersion (strict)', () => {
  test('reads core, pre-release and build metadata', () => {
    assert.deepEqual(v('1.2.3'), { major: 1, minor: 2, patch: 3, pre: [], build: [] });
    assert.deepEqual(v('3.15.1-0.1725401534.p'), {
      major: 3,
      minor: 15,
      patch: 1,
      pre: [0, 1725401534, 'p'],
      build: [],
    });
    assert.deepEqual(v('3.15.1+0.1725401534.p').build, ['0', '1725401534', 'p']);
    assert.deepEqual(v('4.15.0-2024-05-27-184620').pre, ['2024-05-27-184620']);
  });
  for (const bad of [
    '',
    '1.2',
    '1.2.3.4',
    'v1.2.3',
    '01.2.3',
    '1.02.3',
    '1.2.3-',
    '1.2.3-01',
    '1.2.3+',
    '1.2.3-a..b',
    'a.b.c',
    '1.2.3-é',
  ]) {
    test(`rejects "${bad}"`, () => assert.throws(() => v(bad), SemverError));
  }
  test('the error says what is wrong', () => {
    assert.throws(() => v('1.02.3'), /leading zero/);
    assert.throws(() => v('1.2'), /MAJOR\.MINOR\.PATCH/);
  });
  test('tryParseVersionTolerant accepts what OLM accepts at runtime, and nothing else', () => {
    assert.equal(tryParseVersionTolerant('v1.5')?.minor, 5);
    assert.equal(tryParseVersionTolerant('1.2.x'), undefined);
    assert.equal(tryParseVersionTolerant(null), undefined);
  });

  test('tryParseVersion returns undefined instead of throwing', () => {
    assert.equal(tryParseVersion('nope'), undefined);
    assert.equal(tryParseVersion(undefined), undefined);
    assert.equal(tryParseVersion('1.0.0')?.major, 1);
  });
});

describe('parseVersionTolerant', () => {
  test('accepts a v prefix, spaces, short forms and leading zeros', () => {
    assert.equal(formatVersion(parseVersionTolerant(' v1.2.3 ')), '1.2.3');
    assert.equal(formatVersion(parseVersionTolerant('1.2')), '1.2.0');
    assert.equal(formatVersion(parseVersionTolerant('1')), '1.0.0');
    assert.equal(formatVersion(parseVersionTolerant('01.02.03-rc.1')), '1.2.3-rc.1');
  });
  test('still rejects garbage', () => assert.throws(() => parseVersionTolerant('latest'), SemverError));
});

describe('compareVersions (SemVer 2.0 precedence)', () => {
  const ordered = [
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.beta',
    '1.0.0-beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0',
    '1.0.1',
    '1.1.0',
    '2.0.0',
  ];
  test('orders the SemVer specification example', () => {
    for (let i = 0; i + 1 < ordered.length; i++) {
      assert.equal(compareVersions(v(ordered[i]!), v(ordered[i + 1]!)), -1, `${ordered[i]} < ${ordered[i + 1]}`);
      assert.equal(compareVersions(v(ordered[i + 1]!), v(ordered[i]!)), 1);
    }
  });
  test('ignores build metadata', () => assert.equal(compareVersions(v('1.0.0+a'), v('1.0.0+b')), 0));
  test('a numeric pre-release identifier sorts below an alphanumeric one', () =>
    assert.equal(compareVersions(v('1.0.0-1'), v('1.0.0-a')), -1));
});

describe('sortNewestFirst', () => {
  const byVersion = (versions: (string | undefined)[]) => {
    const items = versions.map((version, i) => ({ version, name: `b${i}` }));
    return sortNewestFirst(
      items,
      (x) => x.version,
      (x) => x.name,
    ).map((x) => x.version ?? x.name);
  };

  test('orders by precedence, not by text or catalog order (5.8.5 before 5.4.0 before 5.1.0)', () => {
    assert.deepEqual(byVersion(['5.1.0', '5.8.5', '5.4.0', '5.10.0']), ['5.10.0', '5.8.5', '5.4.0', '5.1.0']);
  });
  test('a pre-release comes below its release, and versions OLM reads tolerantly count', () => {
    assert.deepEqual(byVersion(['2.0.0-rc.1', '1.5.0', '2.0.0', 'v1.6']), ['2.0.0', '2.0.0-rc.1', 'v1.6', '1.5.0']);
  });
  test('items without a readable version go last, by name', () => {
    assert.deepEqual(byVersion([undefined, '1.0.0', 'nope']), ['1.0.0', 'b0', 'nope']);
  });
});
