// Upstream OLM has no OperatorHub API: the default sources answer says so (nothing to switch,
// with the reason) and a plan or switch is a 404 that says how upstream removes a catalog.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { OperatorHubView } from '@/lib/api/operator-hub';
import { routeSandbox, type ErrorBody } from '@/lib/server/testing/route-sandbox';

describe('/api/operatorhub upstream', () => {
  const sb = routeSandbox({ demo: false });

  test('GET: the API is absent, nothing to switch, and why', async () => {
    const { GET } = await import('./route');
    const res = await GET(sb.request('/api/operatorhub'));
    const body = (await res.json()) as OperatorHubView;
    assert.equal(res.status, 200);
    assert.equal(body.api, 'absent');
    assert.deepEqual(body.sources, []);
    assert.match(body.canChange.reason ?? '', /does not serve OpenShift's OperatorHub API/);
  });

  test('plan and switch: 404 saying what upstream offers instead', async () => {
    const { POST } = await import('./plan/route');
    const { PATCH } = await import('./route');
    for (const [handler, method, body] of [
      [POST, 'POST', { change: { kind: 'all', disabled: true } }],
      [PATCH, 'PATCH', { change: { kind: 'all', disabled: true }, seen: '1' }],
    ] as const) {
      const res = await handler(sb.request('/api/operatorhub', { method, body }));
      const err = (await res.json()) as ErrorBody;
      assert.equal(res.status, 404);
      assert.match(err.error.message, /upstream OLM has no switch for its catalogs; delete a CatalogSource/);
    }
  });
});
