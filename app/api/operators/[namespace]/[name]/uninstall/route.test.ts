// Uninstall through the route against the sandbox: the preview (what goes, what stays, operands
// by namespace, the operator's message), with and without operands, the console-made group, and
// the checks afterwards made with the Kubernetes API.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { isKubeError } from '@/lib/k8s/errors';
import { CSV_TYPE } from '@/lib/olm/resources/cluster-service-version';
import { OPERATOR_GROUP_TYPE } from '@/lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE } from '@/lib/olm/resources/subscription';
import type { UninstallPreview, UninstallStep } from '@/lib/api/operators';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

type ErrorBody = { error: { code: number; message: string } };

const PG_CLUSTER = {
  group: 'pgpilot.example.com',
  version: 'v1',
  plural: 'postgresclusters',
  namespaced: true,
  kind: 'PostgresCluster',
};
const CRD = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};

describe('POST /api/operators/<ns>/<csv>/uninstall and …/uninstall/plan', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let PLAN: Handler;
  let POST: Handler;
  let admin: KubeClient;
  before(async () => {
    ({ POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    admin = sb.admin;
  });

  const preview = (ns: string, name: string, user = 'admin') =>
    sb.call<UninstallPreview & ErrorBody>(PLAN, '/x', {
      method: 'POST',
      user,
      params: { namespace: ns, name },
    });
  const run = (ns: string, name: string, body: unknown, user = 'admin') =>
    sb.call<{ steps: UninstallStep[] } & ErrorBody>(POST, '/x', {
      method: 'POST',
      user,
      body,
      params: { namespace: ns, name },
    });
  const gone = async (t: typeof CSV_TYPE, name: string, ns?: string) => {
    try {
      await admin.get(t, name, ns);
      return false;
    } catch (err) {
      if (isKubeError(err, 404)) return true;
      throw err;
    }
  };

  test("with operands: listed first, deleted first, then the Subscription, the CSV and the console's group", async () => {
    await subscribe(admin, { namespace: 'pg', package: 'pgpilot', channel: 'stable' });
    await admin.create(OPERATOR_GROUP_TYPE, {
      metadata: { name: 'pg-operators', namespace: 'pg', labels: { 'olm-console.io/created-by': 'olm-console' } },
      spec: { targetNamespaces: ['pg'] },
    });
    await waitForCsv(admin, 'pg', 'pgpilot.v1.4.0');
    await admin.create(PG_CLUSTER, { metadata: { name: 'db1', namespace: 'pg' }, spec: {} });
    const p = await preview('pg', 'pgpilot.v1.4.0');
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.deepEqual(
      p.body.operands.byNamespace.pg?.map((o) => `${o.kind}/${o.name}`),
      ['PostgresCluster/db1'],
    );
    assert.match(p.body.removes.join('; '), /Subscription pgpilot; ClusterServiceVersion pgpilot\.v1\.4\.0/);
    assert.match(p.body.stays.join('; '), /CustomResourceDefinitions postgresclusters\.pgpilot\.example\.com/);
    assert.deepEqual(p.body.operatorGroup, { name: 'pg-operators', createdByConsole: true, lastOperator: true });
    const r = await run('pg', 'pgpilot.v1.4.0', { deleteOperands: true, deleteOperatorGroup: true });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(
      r.body.steps.map((s) => `${s.kind} ${s.outcome}`),
      ['PostgresCluster deleted', 'Subscription deleted', 'ClusterServiceVersion deleted', 'OperatorGroup deleted'],
    );
    assert.ok(await gone(PG_CLUSTER, 'db1', 'pg'));
    assert.ok(await gone(SUBSCRIPTION_TYPE, 'pgpilot', 'pg'));
    await waitFor('the CSV gone', async () => ((await gone(CSV_TYPE, 'pgpilot.v1.4.0', 'pg')) ? true : undefined));
    assert.ok(await gone(OPERATOR_GROUP_TYPE, 'pg-operators', 'pg'));
    assert.equal(await gone(CRD, 'postgresclusters.pgpilot.example.com'), false, 'CRDs stay');
  });

  test("without operands: they stay; the operator's own message and a group not made by the console stay too", async () => {
    await subscribe(admin, { namespace: 'vk', package: 'vaultkeeper', channel: 'stable', targets: ['vk'] });
    const csv = await waitFor(
      'vaultkeeper installed',
      async () =>
        (await admin.get<{ status?: { installedCSV?: string } }>(SUBSCRIPTION_TYPE, 'vaultkeeper', 'vk')).status
          ?.installedCSV,
    );
    await waitForCsv(admin, 'vk', csv);
    const p = await preview('vk', csv);
    assert.ok(p.body.uninstallMessage);
    assert.equal(p.body.operatorGroup?.createdByConsole, false);
    const r = await run('vk', csv, { deleteOperatorGroup: true });
    assert.equal(r.status, 200);
    assert.deepEqual(
      r.body.steps.map((s) => s.kind),
      ['Subscription', 'ClusterServiceVersion'],
    );
    assert.equal(await gone(OPERATOR_GROUP_TYPE, 'vk-og', 'vk'), false);
  });

  test('an operator that asks consoles not to delete operands; a copy; a viewer', async () => {
    await subscribe(admin, { namespace: 'bs', package: 'backstop', channel: 'v1', targets: [''] });
    await waitForCsv(admin, 'bs', 'backstop.v1.1.0');
    const p = await preview('bs', 'backstop.v1.1.0');
    assert.equal(p.body.operandDeleteDisabled, true);
    assert.equal(p.body.copies, -1, 'every namespace');
    const refused = await run('bs', 'backstop.v1.1.0', { deleteOperands: true });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error.message, /disable-operand-delete/);
    await waitForCsv(admin, 'team1', 'backstop.v1.1.0', 'Succeeded').catch(() => undefined);
    const copy = await preview('team1', 'backstop.v1.1.0');
    assert.equal(copy.status, 400);
    assert.match(copy.body.error.message, /copy of the operator installed in bs/);
    const viewer = await run('bs', 'backstop.v1.1.0', {}, 'bob');
    assert.equal(viewer.status, 403);
    assert.equal(await gone(SUBSCRIPTION_TYPE, 'backstop', 'bs'), false);
  });
});
