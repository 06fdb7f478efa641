import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseRange, rangeContains, RangeSyntaxError, tryParseRange } from './range';
import { parseVersion } from './version';

function inRange(range: string, version: string): boolean {
  return rangeContains(parseRange(range), parseVersion(version));
}

describe('ranges from the seeds', () => {
  test('>=4.1.0 <4.1.2', () => {
    assert.equal(inRange('>=4.1.0 <4.1.2', '4.1.0'), true);
    assert.equal(inRange('>=4.1.0 <4.1.2', '4.1.1'), true);
    assert.equal(inRange('>=4.1.0 <4.1.2', '4.1.2'), false);
    assert.equal(inRange('>=4.1.0 <4.1.2', '4.0.9'), false);
  });
  test('"> 1.0.0 !1.2.1": space after the operator, and ! as not-equal', () => {
    assert.equal(inRange('> 1.0.0 !1.2.1', '1.0.0'), false);
    assert.equal(inRange('> 1.0.0 !1.2.1', '1.2.0'), true);
    assert.equal(inRange('> 1.0.0 !1.2.1', '1.2.1'), false);
    assert.equal(inRange('> 1.0.0 !1.2.1', '1.2.2'), true);
  });
  test('OR of AND groups, with a space after < (pg4k-pgd in certified-operators)', () => {
    const r = '>=1.22.8 < 1.23.0 || >=1.25.0 <1.26.0';
    assert.equal(inRange(r, '1.22.9'), true);
    assert.equal(inRange(r, '1.23.0'), false);
    assert.equal(inRange(r, '1.24.3'), false);
    assert.equal(inRange(r, '1.25.2'), true);
    assert.equal(parseRange(r).groups.length, 2);
  });
  test("odf-operator's '>=4.14.0 <4.15.0 || 4.15.0' (bare version means equal)", () => {
    assert.equal(inRange('>=4.14.0 <4.15.0 || 4.15.0', '4.15.0'), true);
    assert.equal(inRange('>=4.14.0 <4.15.0 || 4.15.0', '4.15.1'), false);
  });
});

describe('operators', () => {
  const cases: [string, string, boolean][] = [
    ['=1.2.3', '1.2.3', true],
    ['==1.2.3', '1.2.4', false],
    ['1.2.3', '1.2.3', true],
    ['!=1.2.3', '1.2.3', false],
    ['<=1.2.3', '1.2.3', true],
    ['<1.2.3', '1.2.3', false],
    ['>1.2.3', '1.2.4', true],
    ['>=1.2.3', '1.2.2', false],
  ];
  for (const [r, ver, want] of cases) test(`${r} vs ${ver}`, () => assert.equal(inRange(r, ver), want));
});

describe('pre-releases and build metadata, as blang compares them', () => {
  test('pre-releases are not excluded: <2.0.0 contains 2.0.0-rc.1', () =>
    assert.equal(inRange('<2.0.0', '2.0.0-rc.1'), true));
  test('>=1.0.0 <1.1.0 contains 1.1.0-alpha', () => assert.equal(inRange('>=1.0.0 <1.1.0', '1.1.0-alpha'), true));
  test('gatekeeper-style <3.15.1 contains 3.15.1-0.1725401534.p', () =>
    assert.equal(inRange('<3.15.1', '3.15.1-0.1725401534.p'), true));
  test('build metadata is ignored', () => assert.equal(inRange('=1.0.0', '1.0.0+build.5'), true));
});

describe('wildcards', () => {
  test('1.2.x is >=1.2.0 <1.3.0', () => {
    assert.equal(inRange('1.2.x', '1.2.9'), true);
    assert.equal(inRange('1.2.x', '1.3.0'), false);
    assert.equal(inRange('1.2.x', '1.1.9'), false);
  });
  test('1.x is >=1.0.0 <2.0.0', () => {
    assert.equal(inRange('1.x', '1.9.9'), true);
    assert.equal(inRange('1.x', '2.0.0'), false);
  });
  test('>1.2.x is >=1.3.0; <=1.2.x is <1.3.0; <1.2.x is <1.2.0; >=1.2.x is >=1.2.0', () => {
    assert.equal(inRange('>1.2.x', '1.2.9'), false);
    assert.equal(inRange('>1.2.x', '1.3.0'), true);
    assert.equal(inRange('<=1.2.x', '1.2.9'), true);
    assert.equal(inRange('<=1.2.x', '1.3.0'), false);
    assert.equal(inRange('<1.2.x', '1.1.9'), true);
    assert.equal(inRange('<1.2.x', '1.2.0'), false);
    assert.equal(inRange('>=1.2.x', '1.2.0'), true);
  });
  test('quirk: 1.x.x is a patch wildcard (>=1.0.0 <1.1.0)', () => {
    assert.equal(inRange('1.x.x', '1.0.5'), true);
    assert.equal(inRange('1.x.x', '1.1.0'), false);
  });
  test('quirk: !=1.2.x matches nothing (both bounds in one AND group)', () => {
    for (const ver of ['1.1.0', '1.2.5', '1.3.0']) assert.equal(inRange('!=1.2.x', ver), false);
  });
});

describe('invalid ranges are errors that quote the text', () => {
  const bad = [
    '',
    '   ',
    '|| >1.0.0',
    '>1.0.0 ||',
    '>1.0.0 || || <2.0.0',
    'v1.0.0',
    '>=1.0',
    '~1.2.3',
    '^1.2.3',
    '>=abc',
    '=>1.0.0',
    '1.x.3',
    '>1.0.0||<2.0.0',
  ];
  for (const text of bad) {
    test(JSON.stringify(text), () => {
      assert.throws(
        () => parseRange(text),
        (e: unknown) => e instanceof RangeSyntaxError && e.message.includes(`"${text}"`),
      );
    });
  }
  test('tryParseRange returns the error instead of throwing', () => {
    const r = tryParseRange('>=1.0');
    assert.ok('error' in r && r.error.reason.length > 0);
  });
});
