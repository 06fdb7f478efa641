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
    for (const evil of ['/\\evil.example:9999/phish', '/\t/evil.example', '//evil.example', 'https://evil.example/', '\\\\evil.example', '/\n/evil.example', 'javascript:alert(1)', ' //evil.example']) {
      assert.equal(safeRedirectTarget(evil, origin), '/operatorhub', JSON.stringify(evil));
    }
  });

  test('missing or unparsable targets fall back', () => {
    assert.equal(safeRedirectTarget(null, origin), '/operatorhub');
    assert.equal(safeRedirectTarget('', origin, '/'), '/');
  });
});
