import assert from 'node:assert/strict';
import { test } from 'node:test';
import { routeNamer } from './route-names';

test('requests are named by their route pattern, never by the objects they name', () => {
  const name = routeNamer([
    '/',
    '/operators',
    '/operators/[namespace]/[name]',
    '/api/operators/[namespace]/[name]',
    '/api/operators/[namespace]/[name]/uninstall',
    '/api/install/plan',
    '/api/install',
  ]);
  assert.equal(name('/api/operators/team1/pgpilot.v1.4.0'), '/api/operators/[namespace]/[name]');
  assert.equal(
    name('/api/operators/team1/pgpilot.v1.4.0/uninstall?x=1'),
    '/api/operators/[namespace]/[name]/uninstall',
  );
  assert.equal(name('/api/install/plan'), '/api/install/plan');
  assert.equal(name('/operators'), '/operators');
  assert.equal(name('/'), '/');
  assert.equal(name('/_next/static/chunks/a.js'), '/_next/*');
  assert.equal(name('/no/such/thing/here'), 'other');
});
