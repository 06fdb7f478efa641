// The route handler called as Next.js calls it, against the sandbox as the cluster.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '@/lib/sandbox/testing/sandbox-fixture';

describe('GET /api/me/permissions', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    sb = await withSandbox({ demo: false });
    // The console acts as the kubeconfig's user: alice, admin of team1 only.
    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigs.alice!;
    ({ GET } = await import('./route'));
  });
  after(() => sb.close());

  test('answers per action, with the right lacking for each refusal', async () => {
    const res = await GET(new Request('http://console.local/api/me/permissions?namespace=team1'));
    assert.equal(res.status, 200);
    const body = (await res.json()) as {
      namespace: string;
      permissions: { action: string; allowed: boolean; reason?: string }[];
    };
    assert.equal(body.namespace, 'team1');
    const install = body.permissions.find((p) => p.action === 'install');
    assert.deepEqual(install, { action: 'install', allowed: true });
    const ns = body.permissions.find((p) => p.action === 'createNamespace');
    assert.equal(ns?.allowed, false);
    assert.match(ns?.reason ?? '', /^you may not create namespaces$/);
  });

  test('a bad namespace is a 400 naming the parameter', async () => {
    const res = await GET(new Request('http://console.local/api/me/permissions?namespace=Not_A_Name'));
    assert.equal(res.status, 400);
    const body = (await res.json()) as { error: { reason: string; message: string } };
    assert.equal(body.error.reason, 'BadRequest');
    assert.match(body.error.message, /^namespace: /);
    const missing = await GET(new Request('http://console.local/api/me/permissions'));
    assert.equal(missing.status, 400);
  });
});
