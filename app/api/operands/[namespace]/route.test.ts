// Creating the operator's own resources (its initialization resource) through the route.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '@/lib/sandbox/testing/sandbox-fixture';
import { clientAs, subscribe, waitForCsv } from '@/lib/server/testing/cluster';
import { consoleRequest } from '@/lib/server/testing/console-request';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

describe('POST /api/operands/<namespace>', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let POST: Handler;
  before(async () => {
    sb = await withSandbox({ deploymentDelayMs: 0 });
    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    ({ POST } = await import('./route'));
    const admin = clientAs(sb, 'admin');
    await subscribe(admin, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
    await waitForCsv(admin, 'pg', 'pgpilot.v1.4.0');
  });
  after(() => sb.close());

  const post = async (body: unknown, user = 'admin') => {
    const res = await POST(consoleRequest('/api/operands/pg', { method: 'POST', token: sb.tokens[user]!, body }), { params: Promise.resolve({ namespace: 'pg' }) });
    return { status: res.status, body: (await res.json()) as { metadata?: { name?: string; namespace?: string }; error?: { message: string } } };
  };

  test('an API the operator owns is created in the namespace, as the person', async () => {
    const r = await post({ csv: 'pgpilot.v1.4.0', object: { apiVersion: 'pgpilot.example.com/v1', kind: 'PostgresCluster', metadata: { name: 'main' }, spec: { instances: 1 } } });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.deepEqual([r.body.metadata?.name, r.body.metadata?.namespace], ['main', 'pg']);
    const again = await post({ csv: 'pgpilot.v1.4.0', object: { apiVersion: 'pgpilot.example.com/v1', kind: 'PostgresCluster', metadata: { name: 'main' } } });
    assert.equal(again.status, 409);
  });

  test('anything else is refused', async () => {
    const other = await post({ csv: 'pgpilot.v1.4.0', object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } } });
    assert.equal(other.status, 400);
    const foreign = await post({ csv: 'pgpilot.v1.4.0', object: { apiVersion: 'certwarden.example.com/v1', kind: 'Certificate', metadata: { name: 'c' } } });
    assert.equal(foreign.status, 400);
    assert.match(foreign.body.error!.message, /does not own Certificate/);
    const viewer = await post({ csv: 'pgpilot.v1.4.0', object: { apiVersion: 'pgpilot.example.com/v1', kind: 'PostgresCluster', metadata: { name: 'b' } } }, 'bob');
    assert.equal(viewer.status, 403);
  });
});
