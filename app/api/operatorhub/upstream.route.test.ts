// Upstream OLM has no OperatorHub API: the default sources answer says so (nothing to switch,
// with the reason) and a plan or switch is a 404 that says how upstream removes a catalog.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OperatorHubView } from '@/lib/api/operator-hub';
import { withSandbox } from '@/lib/sandbox/testing/sandbox-fixture';
import { consoleRequest } from '@/lib/server/testing/console-request';

type ErrorBody = { error: { code: number; reason: string; message: string } };

describe('/api/operatorhub upstream', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  before(async () => {
    sb = await withSandbox({ demo: false });
    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    process.env.OLM_CONSOLE_WARM_INDEX = 'false';
  });
  after(() => sb.close());

  test('GET: the API is absent, nothing to switch, and why', async () => {
    const { GET } = await import('./route');
    const res = await GET(consoleRequest('/api/operatorhub', { token: sb.tokens.admin! }));
    const body = (await res.json()) as OperatorHubView;
    assert.equal(res.status, 200);
    assert.equal(body.api, 'absent');
    assert.deepEqual(body.sources, []);
    assert.match(body.canChange.reason ?? '', /does not serve OpenShift's OperatorHub API/);
  });

  test('plan and switch: 404 saying what upstream offers instead', async () => {
    const { POST } = await import('./plan/route');
    const { PATCH } = await import('./route');
    for (const [handler, method, body] of [[POST, 'POST', { change: { kind: 'all', disabled: true } }], [PATCH, 'PATCH', { change: { kind: 'all', disabled: true }, seen: '1' }]] as const) {
      const res = await handler(consoleRequest('/api/operatorhub', { method, token: sb.tokens.admin!, body }));
      const err = (await res.json()) as ErrorBody;
      assert.equal(res.status, 404);
      assert.match(err.error.message, /upstream OLM has no switch for its catalogs; delete a CatalogSource/);
    }
  });
});
