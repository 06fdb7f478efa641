// Changing a Subscription through the route, against the sandbox: a channel OLM can move to,
// one it cannot (and why), an unknown one, approval with its effect on the namespace, a change
// by someone else since the person looked.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

type Body = { subscription: Subscription; warnings: string[]; error: { code: number; message: string } };

describe('PATCH /api/subscriptions/<ns>/<name>', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let PATCH: Handler;
  let GET: Handler;
  let admin: KubeClient;
  before(async () => {
    ({ PATCH, GET } = await import('./route'));
    admin = sb.admin;
    await subscribe(admin, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
    await subscribe(admin, { namespace: 'pg', package: 'cachely', channel: 'alpha' });
    await subscribe(admin, { namespace: 'bs', package: 'backstop', channel: 'v1', targets: ['bs'] });
    await waitForCsv(admin, 'pg', 'pgpilot.v1.4.0');
    await waitForCsv(admin, 'bs', 'backstop.v1.1.0');
  });

  const patch = (ns: string, name: string, body: unknown, user = 'admin') =>
    sb.call<Body>(PATCH, `/api/subscriptions/${ns}/${name}`, {
      method: 'PATCH',
      user,
      body,
      params: { namespace: ns, name },
    });

  test('to a channel with an upgrade from the installed version: OLM moves on', async () => {
    const res = await patch('pg', 'pgpilot', { channel: 'fast' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.warnings.join(), /upgrade pgpilot\.v1\.4\.0 to pgpilot\.v1\.5\.0/);
    await waitForCsv(admin, 'pg', 'pgpilot.v1.5.0');
  });

  test('to a channel that cannot take the installed version: 409 and why', async () => {
    const res = await patch('bs', 'backstop', { channel: 'v2' });
    assert.equal(res.status, 409);
    assert.match(res.body.error.message, /channel v2 neither contains backstop\.v1\.1\.0/);
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'backstop', 'bs');
    assert.equal(sub.spec.channel, 'v1', 'nothing was written');
    const unknown = await patch('bs', 'backstop', { channel: 'v9' });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body.error.message, /its channels are v1, v2/);
  });

  test("approval to Manual says which operators share the namespace's plans", async () => {
    const current = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg');
    const stale = await patch('pg', 'pgpilot', {
      approval: 'Manual',
      seen: { channel: 'stable', approval: 'Automatic' },
    });
    assert.equal(stale.status, 409, 'the person saw stable; it is fast now');
    assert.match(stale.body.error.message, /its channel is now fast \(you saw stable\)/);
    // OLM writing status since the page loaded is no conflict: only the fields the person saw count.
    // (A merge patch: OLM may write the status at any moment, so a PUT at `current`'s version could itself conflict.)
    await admin.patch(
      SUBSCRIPTION_TYPE,
      'pgpilot',
      { metadata: { annotations: { touched: 'yes' } } },
      { namespace: 'pg', type: 'merge' },
    );
    const res = await patch('pg', 'pgpilot', {
      approval: 'Manual',
      seen: { channel: current.spec.channel, approval: 'Automatic' },
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.subscription.spec.installPlanApproval, 'Manual');
    assert.match(res.body.warnings.join(), /cachely/);
    await waitFor('written', async () =>
      (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg')).spec.installPlanApproval === 'Manual'
        ? true
        : undefined,
    );
  });

  test('bad bodies, viewers, and missing subscriptions', async () => {
    assert.equal((await patch('pg', 'pgpilot', {})).status, 400);
    assert.equal((await patch('pg', 'pgpilot', { approval: 'Sometimes' })).status, 400);
    const old = await patch('pg', 'pgpilot', { approval: 'Manual', resourceVersion: '1' });
    assert.equal(old.status, 400, 'a field the route does not know is refused, not ignored');
    assert.match(old.body.error.message, /resourceVersion/);
    const viewer = await patch('pg', 'pgpilot', { approval: 'Automatic' }, 'bob');
    assert.equal(viewer.status, 403);
    assert.equal((await patch('pg', 'nope', { approval: 'Manual' })).status, 404);
  });

  test('GET: the progress of an install — Subscription, its InstallPlan and the CSV', async () => {
    const res = await GET(sb.request('/x', { user: 'bob', bearer: true }), {
      params: Promise.resolve({ namespace: 'bs', name: 'backstop' }),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as {
      upgrade: { kind: string };
      installPlan?: { summary: { phase: string }; components: { kind: string }[] };
      csv?: { name: string; phase: string };
    };
    assert.equal(body.csv?.name, 'backstop.v1.1.0');
    assert.equal(body.csv?.phase, 'Succeeded');
    assert.equal(body.installPlan?.summary.phase, 'Complete');
    assert.ok(body.installPlan!.components.some((c) => c.kind === 'ClusterServiceVersion'));
    assert.equal(body.upgrade.kind, 'up-to-date');
  });
});
