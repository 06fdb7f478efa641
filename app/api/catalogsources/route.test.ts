// The catalog sources route against the sandbox: the demo catalog with its packages and health,
// and an unhealthy catalog explained with the Subscriptions it holds back.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { CatalogSourcesResponse } from '@/lib/api/catalog-sources';
import { subscribe, waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody } from '@/lib/server/testing/route-sandbox';

describe('GET /api/catalogsources', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    ({ GET } = await import('./route'));
  });

  const get = (query = '', user = 'admin') =>
    sb.call<CatalogSourcesResponse & ErrorBody>(GET, `/api/catalogsources${query}`, { user, bearer: true });

  test('the demo catalog: type, health, packages read through its registry', async () => {
    const { status, body } = await get();
    assert.equal(status, 200);
    const demo = body.catalogSources.find((c) => c.name === 'olm-console-demo')!;
    assert.equal(demo.namespace, 'olm');
    assert.equal(demo.sourceType, 'grpc');
    assert.equal(demo.health.state, 'READY');
    assert.equal(demo.health.healthy, true);
    assert.equal(demo.readVia, 'registry');
    assert.ok(
      demo.packages.includes('pgpilot') && demo.packages.includes('tenant-core'),
      'every package, dependencies too',
    );
    // tenant-core's CSV is marked non-standalone (lib/sandbox/demo-catalog/README.md): OperatorHub
    // leaves it out, and the answer says so, so that the two counts can be told apart.
    assert.deepEqual(demo.nonStandalone, ['tenant-core']);
    assert.deepEqual(demo.blockedSubscriptions, []);
  });

  test('an unhealthy catalog says what that means and which subscriptions wait on it', async () => {
    await subscribe(sb.admin, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
    assert.ok(
      sb.faults.apply({ catalogUnhealthy: { namespace: 'olm', name: 'olm-console-demo', unhealthy: true } }).ok,
    );
    const demo = await waitFor('the subscription blocked', async () => {
      const c = (await get()).body.catalogSources.find((x) => x.name === 'olm-console-demo');
      return c && c.blockedSubscriptions.length > 0 ? c : undefined;
    });
    assert.equal(demo.health.state, 'TRANSIENT_FAILURE');
    assert.match(demo.health.explanation, /cannot reach/);
    assert.deepEqual(
      demo.blockedSubscriptions.map((s) => `${s.namespace}/${s.name}`),
      ['operators/certwarden'],
    );
    assert.ok(
      sb.faults.apply({ catalogUnhealthy: { namespace: 'olm', name: 'olm-console-demo', unhealthy: false } }).ok,
    );
    const back = await waitFor('the catalog back', async () => {
      const c = (await get()).body.catalogSources.find((x) => x.name === 'olm-console-demo');
      return c?.health.healthy && !c.problem && c.packages.length > 0 ? c : undefined;
    });
    assert.equal(back.health.state, 'READY');
  });

  test('a bad namespace is a 400 naming it', async () => {
    const { status, body } = await get('?namespace=Not_A_Name');
    assert.equal(status, 400);
    assert.match(body.error.message, /namespace/);
  });
});
