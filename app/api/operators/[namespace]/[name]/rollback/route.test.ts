// Rolling an operator back through the route, against the sandbox: the earlier versions of its
// channel, the plan to go back with what it risks, refused for a viewer and for a version that is
// not earlier; applied, the Subscription is made again at the earlier version under Manual
// approval, and once its InstallPlan is approved OLM installs that version while the operator's
// instances stay.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import type { RollbackPlan } from '@/lib/olm/install/rollback';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import type { RollbackView } from '@/lib/server/rollback';
import { clientAs, subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { consoleRequest } from '@/lib/server/testing/console-request';
import { withSandbox } from '@/lib/sandbox/testing/sandbox-fixture';

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;
const PG = { group: 'pgpilot.example.com', version: 'v1', plural: 'postgresclusters', namespaced: true, kind: 'PostgresCluster' };

describe('/api/operators/<ns>/<csv>/rollback', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let GET: Handler;
  let POST: Handler;
  let admin: KubeClient;
  before(async () => {
    sb = await withSandbox({ deploymentDelayMs: 0 });
    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    ({ GET, POST } = await import('./route'));
    admin = clientAs(sb, 'admin');
    await subscribe(admin, { namespace: 'team1', package: 'pgpilot', channel: 'stable', targets: ['team1'] });
    await waitForCsv(admin, 'team1', 'pgpilot.v1.4.0');
    await admin.create(PG, { apiVersion: 'pgpilot.example.com/v1', kind: 'PostgresCluster', metadata: { name: 'main', namespace: 'team1' }, spec: { instances: 3 } }, { namespace: 'team1' });
  });
  after(() => sb.close());

  const params = (csv = 'pgpilot.v1.4.0') => ({ params: Promise.resolve({ namespace: 'team1', name: csv }) });
  const read = async (to?: string, user = 'admin') => {
    const res = await GET(consoleRequest(`/api/operators/team1/pgpilot.v1.4.0/rollback${to ? `?to=${to}` : ''}`, { token: sb.tokens[user]! }), params());
    return { status: res.status, body: (await res.json()) as RollbackView & { error?: { message: string } } };
  };
  const apply = async (to: string, user = 'admin') => {
    const res = await POST(consoleRequest('/api/operators/team1/pgpilot.v1.4.0/rollback', { method: 'POST', token: sb.tokens[user]!, body: { to } }), params());
    return { status: res.status, body: (await res.json()) as { subscription?: { name: string }; steps?: { step: string; outcome: string }[]; error?: { message: string; details?: { risks?: RollbackPlan['risks'] } } } };
  };

  test('the earlier versions of the channel, newest first', async () => {
    const { status, body } = await read();
    assert.equal(status, 200);
    assert.deepEqual(body.earlier.map((e) => e.version), ['1.3.0', '1.2.0', '1.1.0', '1.0.0']);
    assert.equal(body.subscription, 'pgpilot');
  });

  test('the plan to 1.3.0: the steps, the Subscription made again, and what the CRDs risk', async () => {
    const { body } = await read('pgpilot.v1.3.0');
    const plan = body.plan!;
    assert.equal(plan.blocked, false);
    assert.deepEqual(plan.steps.map((s) => `${s.action} ${s.kind} ${s.name}`), ['delete Subscription pgpilot', 'delete ClusterServiceVersion pgpilot.v1.4.0', 'create Subscription pgpilot']);
    assert.equal(plan.subscription.spec.startingCSV, 'pgpilot.v1.3.0');
    assert.equal(plan.subscription.spec.installPlanApproval, 'Manual');
    // The demo's bundles carry their CRDs: compared, nothing is lost.
    assert.ok(plan.risks.some((r) => r.message === '1.3.0\'s CRDs (postgresclusters.pgpilot.example.com, postgresbackups.pgpilot.example.com) compared with the cluster\'s: no stored version dropped, no field lost'), JSON.stringify(plan.risks));
  });

  test('refused: a version that is not earlier, and a viewer', async () => {
    const later = await apply('pgpilot.v1.5.0');
    assert.equal(later.status, 409);
    assert.match(later.body.error!.message, /not an earlier version/);
    const bob = await read('pgpilot.v1.3.0', 'bob');
    assert.equal(bob.body.plan!.blocked, true);
    assert.ok(bob.body.plan!.risks.some((r) => r.level === 'blocker' && /may not delete the Subscription in team1/.test(r.message)));
    const bobApply = await apply('pgpilot.v1.3.0', 'bob');
    assert.equal(bobApply.status, 409);
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'team1');
    assert.equal(sub.status?.installedCSV, 'pgpilot.v1.4.0', 'nothing was touched');
  });

  test('applied: OLM plans 1.3.0 and waits; approved, 1.3.0 runs and the instance is still there', async () => {
    const res = await apply('pgpilot.v1.3.0');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body.steps!.map((s) => s.outcome), ['done', 'done', 'done']);
    const plan = await waitFor('a plan waiting for approval', async () => (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'team1' })).items.find((p) => p.status?.phase === 'RequiresApproval' && p.spec.clusterServiceVersionNames.includes('pgpilot.v1.3.0')));
    await admin.patch(INSTALL_PLAN_TYPE, plan.metadata!.name!, { spec: { approved: true } }, { namespace: 'team1', type: 'merge' });
    await waitForCsv(admin, 'team1', 'pgpilot.v1.3.0');
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'team1');
    assert.equal(sub.status?.installedCSV, 'pgpilot.v1.3.0');
    assert.ok(await admin.get(PG, 'main', 'team1'), 'the instance stayed');
    // The old CSV's route now answers that nothing has it installed.
    const gone = await read();
    assert.equal(gone.status, 404);
  });
});
