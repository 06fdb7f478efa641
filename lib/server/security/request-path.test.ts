import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalPath } from './request-path';

const path = (t: string) => {
  const c = canonicalPath(t);
  return c.ok ? c.path : `refused: ${c.message}`;
};

describe('canonicalPath', () => {
  test('an ordinary path is itself, without its query, and one trailing slash names the same page', () => {
    assert.equal(path('/api/session'), '/api/session');
    assert.equal(path('/api/catalog/packages?q=a/../b'), '/api/catalog/packages');
    assert.equal(path('/operators/'), '/operators');
    assert.equal(path('/'), '/');
  });

  test('percent-encoded letters are the letters the router reads', () => {
    assert.equal(path('/%61pi/session'), '/api/session');
    assert.equal(path('/api/%73ession'), '/api/session');
    assert.equal(path('/operatorhub/olm/community%2Doperators/x'), '/operatorhub/olm/community-operators/x');
  });

  test('every spelling that resolves dot segments or doubled slashes is refused, not guessed at', () => {
    for (const spelling of [
      '/./api/session',
      '/api/./session',
      '/api/x/../session',
      '/api//session',
      '//api/session',
      '/api/session//',
      '/api/%2e/session',
      '/api/%2E%2E/session',
      '/api/.%2e/session',
      '/api%2fsession',
      '/api%2Fsession',
      '/api/session%5c',
      '/api\\session',
      '/api/sess%00ion',
      '/api/%0a',
      '/api/%zz',
      'http://evil.example/api/session',
      '*',
    ]) {
      assert.match(path(spelling), /^refused: /, spelling);
    }
  });

  test('a dot inside a segment is a name, not a dot segment', () => {
    assert.equal(path('/api/operators/ns/etcd.v0.9.2'), '/api/operators/ns/etcd.v0.9.2');
    assert.equal(
      path('/operators/ns/x/instances/cert-manager.io/v1/issuers/ns/.hidden'),
      '/operators/ns/x/instances/cert-manager.io/v1/issuers/ns/.hidden',
    );
  });
});
