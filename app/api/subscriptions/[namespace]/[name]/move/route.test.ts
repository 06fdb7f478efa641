// Moving an operator to a namespace of its own through the route, against the sandbox: PgPilot
// and Cachely share namespace `shared`, both under Manual approval (so OLM plans them together);
// the move is planned (namespace and OperatorGroup made there, watching `shared` still), refused
// to a viewer with the reason, then applied — OLM installs the same version in the new namespace,
// the old Subscription and CSV are gone, and what Cachely's plans carry is Cachely's alone.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { isKubeError } from '@/lib/k8s/errors';
import type { MovePlan } from '@/lib/olm/install/move';
import { CSV_TYPE, type ClusterServiceVersion } from '@/lib/olm/resources/cluster-service-version';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '@/lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

describe('/api/subscriptions/<ns>/<name>/move', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let PLAN: Handler;
  let POST: Handler;
  let admin: KubeClient;
  const approveWaiting = async (ns: string) => {
    const plan = await waitFor(`a plan waiting in ${ns}`, async () =>
      (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: ns })).items.find(
        (p) => p.status?.phase === 'RequiresApproval' && !p.spec.approved,
      ),
    );
    await admin.patch(
      INSTALL_PLAN_TYPE,
      plan.metadata!.name!,
      { spec: { approved: true } },
      { namespace: ns, type: 'merge' },
    );
  };
  before(async () => {
    ({ POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    admin = sb.admin;
    await subscribe(admin, {
      namespace: 'shared',
      package: 'pgpilot',
      channel: 'stable',
      approval: 'Manual',
      startingCSV: 'pgpilot.v1.2.0',
      targets: ['shared'],
    });
    await approveWaiting('shared');
    await waitForCsv(admin, 'shared', 'pgpilot.v1.2.0');
    await subscribe(admin, { namespace: 'shared', package: 'cachely', channel: 'alpha', approval: 'Manual' });
  });

  const call = (h: Handler, method: string, to: string, user = 'admin') => {
    const path = `/api/subscriptions/shared/pgpilot/move${h === PLAN ? '/plan' : ''}`;
    return sb.call<
      MovePlan & {
        steps?: { step: string; outcome: string }[];
        subscription?: { namespace: string };
        error?: { message: string };
      }
    >(h, path, {
      method,
      user,
      body: { to },
      params: { namespace: 'shared', name: 'pgpilot' },
    });
  };

  test('the move planned: a namespace and a group that keep PgPilot watching shared, then the same version there', async () => {
    const { status, body } = await call(PLAN, 'POST', 'pgpilot-own');
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.blockers, []);
    assert.deepEqual(
      body.objects.map((o) => `${o.action} ${o.kind} ${o.name}`),
      ['create Namespace pgpilot-own', 'create OperatorGroup pgpilot-own-operators'],
    );
    assert.deepEqual(body.targets, ['shared']);
    assert.equal(body.subscription?.spec.startingCSV, 'pgpilot.v1.2.0');
    assert.ok(
      body.warnings.some((w) => /shared's InstallPlans then carry only cachely/.test(w)),
      JSON.stringify(body.warnings),
    );
  });

  test('a viewer is refused with the reasons; a bad namespace names the field', async () => {
    const bob = await call(POST, 'POST', 'pgpilot-own', 'bob');
    assert.equal(bob.status, 409);
    assert.match(bob.body.error!.message, /you may not delete Subscription shared\/pgpilot/);
    const bad = await call(PLAN, 'POST', 'Not_A_Namespace');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error!.message, /to/);
    await admin.get(SUBSCRIPTION_TYPE, 'pgpilot', 'shared');
  });

  test('applied: gone from shared, installed at the same version in its own namespace, watching shared', async () => {
    const { status, body } = await call(POST, 'POST', 'pgpilot-own');
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.subscription, { namespace: 'pgpilot-own', name: 'pgpilot' });
    await assert.rejects(admin.get(SUBSCRIPTION_TYPE, 'pgpilot', 'shared'), (e) => isKubeError(e, 404));
    await waitFor('the old CSV gone', async () =>
      admin.get(CSV_TYPE, 'pgpilot.v1.2.0', 'shared').then(
        () => undefined,
        (e) => (isKubeError(e, 404) ? true : undefined),
      ),
    );
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pgpilot-own');
    assert.deepEqual(
      [sub.spec.startingCSV, sub.spec.installPlanApproval, sub.spec.channel],
      ['pgpilot.v1.2.0', 'Manual', 'stable'],
    );
    const groups = (await admin.listAll<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace: 'pgpilot-own' })).items;
    assert.deepEqual(
      groups.map((g) => g.spec?.targetNamespaces),
      [['shared']],
    );
    await approveWaiting('pgpilot-own');
    await waitForCsv(admin, 'pgpilot-own', 'pgpilot.v1.2.0');
    const csv = await admin.get<ClusterServiceVersion>(CSV_TYPE, 'pgpilot.v1.2.0', 'pgpilot-own');
    assert.equal(csv.metadata?.annotations?.['olm.targetNamespaces'], 'shared');
    // What shared's plans now carry is Cachely's alone.
    const plans = (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'shared' })).items.filter(
      (p) => !p.spec.approved,
    );
    assert.ok(
      plans.length > 0 && plans.every((p) => p.spec.clusterServiceVersionNames.every((n) => n.startsWith('cachely.'))),
      JSON.stringify(plans.map((p) => p.spec.clusterServiceVersionNames)),
    );
  });
});
