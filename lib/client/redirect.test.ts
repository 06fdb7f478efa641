import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { safeRedirectTarget } from './redirect';

const origin = 'http://127.0.0.1:3000';

describe('safeRedirectTarget', () => {
  test('paths of the console are kept, with query and hash', () => {
    assert.equal(safeRedirectTarget('/operators?namespace=team1#x', origin), '/operators?namespace=team1#x');
    assert.equal(safeRedirectTarget('/installplans/team1/p', origin), '/installplans/team1/p');
  });

  test('anything that leaves the origin falls back, however it is spelt', () => {
    for (const evil of [
      '/\\evil.example:9999/phish',
      '/\t/evil.example',
      '//evil.example',
      'https://evil.example/',
      '\\\\evil.example',
      '/\n/evil.example',
      'javascript:alert(1)',
      ' //evil.example',
    ]) {
      assert.equal(safeRedirectTarget(evil, origin), '/operatorhub', JSON.stringify(evil));
    }
  });

  test('a path of the console that starts with "//" once resolved is another host, and falls back', () => {
    const spellings = [
      '/.//127.0.0.1:17354/phish',
      '/a/..//evil.example/phish',
      'http://127.0.0.1:3000//evil.example/phish',
      '/./%2F/evil.example',
      '/%2e/%2e//evil.example',
      '/.\\evil.example',
      '/..//evil.example',
    ];
    for (const evil of spellings) {
      const target = safeRedirectTarget(evil, origin);
      assert.equal(new URL(target, origin).origin, origin, `${JSON.stringify(evil)} → ${target}`);
    }
    assert.equal(safeRedirectTarget('/.//127.0.0.1:17354/phish', origin), '/operatorhub');
    assert.equal(safeRedirectTarget('/a/..//evil.example', origin), '/operatorhub');
    assert.equal(safeRedirectTarget('http://127.0.0.1:3000//evil.example/x', origin), '/operatorhub');
  });

  test('dot segments that stay on the console resolve to the page they name', () => {
    assert.equal(safeRedirectTarget('/a/../operators', origin), '/operators');
    assert.equal(safeRedirectTarget('http://127.0.0.1:3000/operators?namespace=x', origin), '/operators?namespace=x');
  });

  test('missing or unparsable targets fall back', () => {
    assert.equal(safeRedirectTarget(null, origin), '/operatorhub');
    assert.equal(safeRedirectTarget('', origin, '/'), '/');
  });
});
