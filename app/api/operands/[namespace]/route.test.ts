// Creating the operator's own resources (its initialization resource) through the route.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ensureNamespace, subscribe, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

describe('POST /api/operands/<namespace>', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let POST: Handler;
  before(async () => {
    ({ POST } = await import('./route'));
    const admin = sb.admin;
    await subscribe(admin, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
    await waitForCsv(admin, 'pg', 'pgpilot.v1.4.0');
    // Backstop watches its own namespace and team1 (MultiNamespace).
    await ensureNamespace(admin, 'team1');
    await subscribe(admin, { namespace: 'bk', package: 'backstop', channel: 'v1', targets: ['bk', 'team1'] });
    await waitForCsv(admin, 'bk', 'backstop.v1.1.0');
  });

  const post = (body: unknown, user = 'admin', namespace = 'pg') =>
    sb.call<{ metadata?: { name?: string; namespace?: string }; error?: { message: string } }>(
      POST,
      `/api/operands/${namespace}`,
      { method: 'POST', user, body, params: { namespace } },
    );

  test('an API the operator owns is created in the namespace, as the person', async () => {
    const r = await post({
      csv: 'pgpilot.v1.4.0',
      object: {
        apiVersion: 'pgpilot.example.com/v1',
        kind: 'PostgresCluster',
        metadata: { name: 'main' },
        spec: { instances: 1 },
      },
    });
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.deepEqual([r.body.metadata?.name, r.body.metadata?.namespace], ['main', 'pg']);
    const again = await post({
      csv: 'pgpilot.v1.4.0',
      object: { apiVersion: 'pgpilot.example.com/v1', kind: 'PostgresCluster', metadata: { name: 'main' } },
    });
    assert.equal(again.status, 409);
  });

  test('anything else is refused', async () => {
    const other = await post({
      csv: 'pgpilot.v1.4.0',
      object: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } },
    });
    assert.equal(other.status, 400);
    const foreign = await post({
      csv: 'pgpilot.v1.4.0',
      object: { apiVersion: 'certwarden.example.com/v1', kind: 'Certificate', metadata: { name: 'c' } },
    });
    assert.equal(foreign.status, 400);
    assert.match(foreign.body.error!.message, /does not own Certificate/);
    const viewer = await post(
      {
        csv: 'pgpilot.v1.4.0',
        object: { apiVersion: 'pgpilot.example.com/v1', kind: 'PostgresCluster', metadata: { name: 'b' } },
      },
      'bob',
    );
    assert.equal(viewer.status, 403);
  });

  test("the form's choice of namespace: any the operator watches, read from where it runs", async () => {
    const plan = (name: string) => ({
      apiVersion: 'backstop.example.com/v1',
      kind: 'BackupPlan',
      metadata: { name },
      spec: { schedule: '@daily' },
    });
    const r = await post(
      { csv: 'backstop.v1.1.0', operatorNamespace: 'bk', object: plan('nightly') },
      'admin',
      'team1',
    );
    assert.equal(r.status, 201, JSON.stringify(r.body));
    assert.deepEqual([r.body.metadata?.name, r.body.metadata?.namespace], ['nightly', 'team1']);
    // pg is not one of backstop's: nothing there would act on it.
    const elsewhere = await post(
      { csv: 'backstop.v1.1.0', operatorNamespace: 'bk', object: plan('stray') },
      'admin',
      'pg',
    );
    assert.equal(elsewhere.status, 400);
    assert.match(elsewhere.body.error!.message, /backstop\.v1\.1\.0 does not watch the namespace pg/);
    const badNs = await post(
      { csv: 'backstop.v1.1.0', operatorNamespace: 'Not_A_Namespace', object: plan('x') },
      'admin',
      'team1',
    );
    assert.equal(badNs.status, 400);
    assert.match(badNs.body.error!.message, /operatorNamespace/);
  });
});
