// Refreshing a failing Subscription through the route, against the sandbox: an InstallPlan made to
// fail (the sandbox's fault), the repair planned with OLM's reason, applied — the failed plan, the
// Subscription and whatever CSV it left deleted, the Subscription made again as it was — and OLM
// installs the operator. A healthy Subscription and a viewer are refused, and nothing is written.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import type { KubeClient } from '@/lib/k8s/client';
import { kubeRequest } from '@/lib/k8s/http';
import type { RefreshPlan } from '@/lib/olm/install/refresh';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

describe('/api/subscriptions/<ns>/<name>/refresh', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let PLAN: Handler;
  let POST: Handler;
  let admin: KubeClient;
  let failedPlan = '';
  before(async () => {
    ({ POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    admin = sb.admin;
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    await kubeRequest(kc, {
      method: 'POST',
      path: '/sandbox/faults',
      body: { failNextInstallPlan: 'image quay.example.com/demo/cachely-bundle:v0.9.2 could not be pulled' },
      retry: 'none',
    });
    await subscribe(admin, { namespace: 'team1', package: 'cachely', channel: 'alpha', targets: ['team1'] });
    await subscribe(admin, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
    await waitForCsv(admin, 'pg', 'pgpilot.v1.4.0');
    failedPlan = await waitFor(
      'the failed plan',
      async () =>
        (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'team1' })).items.find(
          (p) => p.status?.phase === 'Failed',
        )?.metadata?.name,
    );
    await waitFor('the Subscription to say so', async () =>
      (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'cachely', 'team1')).status?.conditions?.some(
        (c) => c.type === 'InstallPlanFailed' && c.status === 'True',
      )
        ? true
        : undefined,
    );
  });

  const call = (h: Handler, method: string, ns = 'team1', name = 'cachely', user = 'admin') =>
    sb.call<{ plan?: RefreshPlan; steps?: { step: string; outcome: string }[]; error?: { message: string } }>(
      h,
      `/api/subscriptions/${ns}/${name}/refresh${h === PLAN ? '/plan' : ''}`,
      { method, user, params: { namespace: ns, name } },
    );

  test("the repair planned: why it fails, in OLM's words, and each step", async () => {
    const { status, body } = await call(PLAN, 'POST');
    assert.equal(status, 200);
    const plan = body.plan!;
    assert.ok(
      plan.failing.some((f) => /could not be pulled/.test(f)),
      JSON.stringify(plan.failing),
    );
    assert.deepEqual(
      plan.steps.map((s) => `${s.action} ${s.kind} ${s.name}`),
      ['delete Subscription cachely', `delete InstallPlan ${failedPlan}`, 'create Subscription cachely'],
    );
    assert.deepEqual(
      plan.subscription.spec,
      (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'cachely', 'team1')).spec,
    );
    assert.deepEqual(plan.blockers, []);
  });

  test('refused: a healthy Subscription, and a viewer', async () => {
    const healthy = await call(POST, 'POST', 'pg', 'pgpilot');
    assert.equal(healthy.status, 409);
    assert.match(healthy.body.error!.message, /Subscription pgpilot is not failing/);
    const bob = await call(POST, 'POST', 'team1', 'cachely', 'bob');
    assert.equal(bob.status, 409);
    assert.match(bob.body.error!.message, /you may not delete the Subscription in team1/);
    assert.ok(await admin.get(INSTALL_PLAN_TYPE, failedPlan, 'team1'), 'nothing was deleted');
  });

  test('applied: the failed plan goes, the Subscription is made again, OLM installs the operator', async () => {
    const before = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'cachely', 'team1');
    const res = await call(POST, 'POST');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.ok(
      res.body.steps!.every((s) => s.outcome === 'done' || s.outcome === 'already gone'),
      JSON.stringify(res.body.steps),
    );
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'cachely', 'team1');
    assert.notEqual(sub.metadata?.uid, before.metadata?.uid, 'a new Subscription');
    assert.deepEqual(sub.spec, before.spec);
    await waitFor('cachely installed', async () => {
      const s = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'cachely', 'team1');
      return s.status?.installedCSV && s.status.state === 'AtLatestKnown' ? true : undefined;
    });
    await assert.rejects(admin.get(INSTALL_PLAN_TYPE, failedPlan, 'team1'), /not found/);
  });
});
