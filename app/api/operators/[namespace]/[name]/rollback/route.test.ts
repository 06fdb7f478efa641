// Rolling an operator back through the route, against the sandbox: the earlier versions of its
// channel, the plan to go back with what it risks, refused for a viewer and for a version that is
// not earlier; applied, the Subscription is made again at the earlier version under Manual
// approval, and once its InstallPlan is approved OLM installs that version while the operator's
// instances stay.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import type { RollbackPlan } from '@/lib/olm/install/rollback';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import type { RollbackView } from '@/lib/server/rollback';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

const PG = {
  group: 'pgpilot.example.com',
  version: 'v1',
  plural: 'postgresclusters',
  namespaced: true,
  kind: 'PostgresCluster',
};

describe('/api/operators/<ns>/<csv>/rollback', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: Handler;
  let POST: Handler;
  let PLAN: Handler;
  let admin: KubeClient;
  before(async () => {
    ({ GET, POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    admin = sb.admin;
    await subscribe(admin, { namespace: 'team1', package: 'pgpilot', channel: 'stable', targets: ['team1'] });
    await waitForCsv(admin, 'team1', 'pgpilot.v1.4.0');
    await admin.create(
      PG,
      {
        apiVersion: 'pgpilot.example.com/v1',
        kind: 'PostgresCluster',
        metadata: { name: 'main', namespace: 'team1' },
        spec: { instances: 3 },
      },
      { namespace: 'team1' },
    );
  });

  const params = { namespace: 'team1', name: 'pgpilot.v1.4.0' };
  // The versions are a read; a plan for one of them is POST …/rollback/plan with the rollback's body.
  const read = (to?: string, user = 'admin') =>
    to
      ? sb.call<RollbackView & { error?: { message: string } }>(
          PLAN,
          '/api/operators/team1/pgpilot.v1.4.0/rollback/plan',
          {
            method: 'POST',
            user,
            body: { to },
            params,
          },
        )
      : sb.call<RollbackView & { error?: { message: string } }>(GET, '/api/operators/team1/pgpilot.v1.4.0/rollback', {
          user,
          params,
        });
  const apply = (to: string, user = 'admin') =>
    sb.call<{
      subscription?: { name: string };
      steps?: { step: string; outcome: string }[];
      error?: { message: string; details?: { risks?: RollbackPlan['risks'] } };
    }>(POST, '/api/operators/team1/pgpilot.v1.4.0/rollback', { method: 'POST', user, body: { to }, params });

  test('the earlier versions of the channel, newest first', async () => {
    const { status, body } = await read();
    assert.equal(status, 200);
    assert.deepEqual(
      body.earlier.map((e) => e.version),
      ['1.3.0', '1.2.0', '1.1.0', '1.0.0'],
    );
    assert.equal(body.subscription, 'pgpilot');
  });

  test('the plan to 1.3.0: the steps, the Subscription made again, and what the CRDs risk', async () => {
    const { body } = await read('pgpilot.v1.3.0');
    const plan = body.plan!;
    assert.equal(plan.blocked, false);
    assert.deepEqual(
      plan.steps.map((s) => `${s.action} ${s.kind} ${s.name}`),
      ['delete Subscription pgpilot', 'delete ClusterServiceVersion pgpilot.v1.4.0', 'create Subscription pgpilot'],
    );
    assert.equal(plan.subscription.spec.startingCSV, 'pgpilot.v1.3.0');
    assert.equal(plan.subscription.spec.installPlanApproval, 'Manual');
    // The demo's bundles carry their CRDs: compared, nothing is lost.
    assert.ok(
      plan.risks.some(
        (r) =>
          r.message ===
          "1.3.0's CRDs (postgresclusters.pgpilot.example.com, postgresbackups.pgpilot.example.com) compared with the cluster's: no stored version dropped, no field lost",
      ),
      JSON.stringify(plan.risks),
    );
  });

  test('refused: a version that is not earlier, and a viewer', async () => {
    const later = await apply('pgpilot.v1.5.0');
    assert.equal(later.status, 409);
    assert.match(later.body.error!.message, /not an earlier version/);
    const bob = await read('pgpilot.v1.3.0', 'bob');
    assert.equal(bob.body.plan!.blocked, true);
    assert.ok(
      bob.body.plan!.risks.some(
        (r) => r.level === 'blocker' && /may not delete the Subscription in team1/.test(r.message),
      ),
    );
    const bobApply = await apply('pgpilot.v1.3.0', 'bob');
    assert.equal(bobApply.status, 409);
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'team1');
    assert.equal(sub.status?.installedCSV, 'pgpilot.v1.4.0', 'nothing was touched');
  });

  test('applied: OLM plans 1.3.0 and waits; approved, 1.3.0 runs and the instance is still there', async () => {
    const res = await apply('pgpilot.v1.3.0');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.steps!.map((s) => s.outcome),
      ['done', 'done', 'done'],
    );
    const plan = await waitFor('a plan waiting for approval', async () =>
      (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'team1' })).items.find(
        (p) => p.status?.phase === 'RequiresApproval' && p.spec.clusterServiceVersionNames.includes('pgpilot.v1.3.0'),
      ),
    );
    await admin.patch(
      INSTALL_PLAN_TYPE,
      plan.metadata!.name!,
      { spec: { approved: true } },
      { namespace: 'team1', type: 'merge' },
    );
    await waitForCsv(admin, 'team1', 'pgpilot.v1.3.0');
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'team1');
    assert.equal(sub.status?.installedCSV, 'pgpilot.v1.3.0');
    assert.ok(await admin.get(PG, 'main', 'team1'), 'the instance stayed');
    // The old CSV's route now answers that nothing has it installed.
    const gone = await read();
    assert.equal(gone.status, 404);
  });
});
