// "Upgrade up to a version" against the sandbox: PgPilot at 1.0.0 on channel fast (1.0.0 → 1.4.0
// → 1.5.0, one InstallPlan a hop) given the target 1.4.0. The approver approves the plan to 1.4.0,
// records who set the target, and once 1.4.0 is installed removes the target, leaving the plan to
// 1.5.0 waiting. Refused: a version off the path, an Automatic Subscription, and people who may not
// approve InstallPlans themselves — also when they write the target on the Subscription directly,
// alter a sealed one or copy one from another Subscription: the approver approves nothing for it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { UPGRADE_TARGET_ANNOTATION } from '@/lib/olm/install/upgrade-target';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { clientAs, subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';
import { approverClient, approverPass, type UpgradeTargetView } from '@/lib/server/upgrade-target';

const EVENTS = { group: '', version: 'v1', plural: 'events', namespaced: true, kind: 'Event' };

describe('/api/subscriptions/<ns>/<name>/upgrade-target and the approver', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: Handler;
  let PUT: Handler;
  let DELETE: Handler;
  let admin: KubeClient;
  let approver: KubeClient;
  const refusals = async () => {
    type Event = { reason?: string; type?: string; message?: string };
    const events = await admin.listAll<Event>(EVENTS, { namespace: 'team1' });
    return events.items.filter((e) => e.reason === 'UpgradeTargetRefused');
  };
  const waitingPlan = (csv: string, namespace = 'team1') =>
    waitFor(`a plan for ${csv} waiting in ${namespace}`, async () => {
      const plans = await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace });
      const waiting = (p: InstallPlan) => p.status?.phase === 'RequiresApproval';
      return plans.items.find((p) => waiting(p) && p.spec.clusterServiceVersionNames.includes(csv));
    });
  /** PgPilot 1.0.0 installed in `namespace`, Manual, its plan to 1.4.0 waiting. */
  const installAt100 = async (namespace: string) => {
    const pgpilot = { package: 'pgpilot', channel: 'fast', startingCSV: 'pgpilot.v1.0.0' };
    await subscribe(admin, { namespace, ...pgpilot, targets: [namespace], approval: 'Manual' });
    const first = await waitingPlan('pgpilot.v1.0.0', namespace);
    const approved = { spec: { approved: true } };
    await admin.patch(INSTALL_PLAN_TYPE, first.metadata!.name!, approved, { namespace, type: 'merge' });
    await waitForCsv(admin, namespace, 'pgpilot.v1.0.0');
    await waitingPlan('pgpilot.v1.4.0', namespace);
  };
  const annotations = async (namespace = 'team1') =>
    (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', namespace)).metadata?.annotations ?? {};
  before(async () => {
    process.env.OLM_CONSOLE_UPGRADE_APPROVER = 'console';
    ({ GET, PUT, DELETE } = await import('./route'));
    admin = sb.admin;
    approver = await approverClient('console');
    await installAt100('team1');
    // Another namespace's PgPilot, whose sealed target is copied onto team1's below.
    await installAt100('team2');
  });
  after(() => {
    delete process.env.OLM_CONSOLE_UPGRADE_APPROVER;
  });

  type Answer = UpgradeTargetView & { error?: { message: string } };
  const call = (h: Handler, method: string, body?: unknown, user = 'admin', name = 'pgpilot', namespace = 'team1') =>
    sb.call<Answer>(h, `/api/subscriptions/${namespace}/${name}/upgrade-target`, {
      method,
      user,
      ...(body ? { body } : {}),
      params: { namespace, name },
    });
  /** alice, admin of team1: she may patch its Subscriptions, and may not approve its InstallPlans. */
  const aliceWrites = async (value: string) => {
    const patch = { metadata: { annotations: { [UPGRADE_TARGET_ANNOTATION]: value } } };
    const alice = clientAs(sb.sandbox, 'alice');
    await alice.patch(SUBSCRIPTION_TYPE, 'pgpilot', patch, { namespace: 'team1', type: 'merge' });
  };

  test('the path offered from 1.0.0: one InstallPlan a hop', async () => {
    const { status, body } = await call(GET, 'GET');
    assert.equal(status, 200);
    assert.deepEqual(
      body.path.map((s) => s.to),
      ['pgpilot.v1.4.0', 'pgpilot.v1.5.0'],
    );
    assert.equal(body.target, undefined);
    assert.equal(body.approverConfigured, true);
  });

  test('refused: off the path, and for people who may not approve plans themselves', async () => {
    const off = await call(PUT, 'PUT', { target: 'pgpilot.v1.3.0' });
    assert.equal(off.status, 409);
    assert.match(
      off.body.error!.message,
      /pgpilot\.v1\.3\.0 is not on the update path from the installed version \(pgpilot\.v1\.4\.0 → pgpilot\.v1\.5\.0\)/,
    );
    const alice = await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' }, 'alice');
    assert.equal(alice.status, 403);
    assert.match(alice.body.error!.message, /you may not approve them yourself/);
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'team1');
    assert.equal(sub.metadata?.annotations?.[UPGRADE_TARGET_ANNOTATION], undefined, 'nothing was written');
  });

  test('a target written directly by one who may not approve plans is refused, with one Warning Event', async () => {
    await aliceWrites(JSON.stringify({ csv: 'pgpilot.v1.4.0', setBy: 'admin', setAt: new Date().toISOString() }));
    const pass = await approverPass(approver);
    assert.deepEqual(pass.approved, [], 'nothing is approved for an unsigned target');
    await waitingPlan('pgpilot.v1.4.0');
    const refused = await refusals();
    assert.equal(refused.length, 1, JSON.stringify(refused));
    assert.equal(refused[0]!.type, 'Warning');
    assert.match(refused[0]!.message ?? '', /pgpilot\.v1\.4\.0.*carries no seal/);
    await approverPass(approver);
    assert.equal((await refusals()).length, 1, 'the same target is reported once, not every pass');
    const view = await call(GET, 'GET');
    assert.match(view.body.refused ?? '', /carries no seal/);
    assert.equal(view.body.verdict, undefined, 'the page is not told a plan is on its way');
    assert.equal((await call(DELETE, 'DELETE')).status, 200);
    const left = Object.keys(await annotations()).filter((k) => k.startsWith('olm-console.io/'));
    assert.deepEqual(left, [], 'cancelling removes the target and the mark');
  });

  test('a sealed target whose csv is changed afterwards is refused', async () => {
    assert.equal((await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' })).status, 200);
    const sealed = JSON.parse((await annotations())[UPGRADE_TARGET_ANNOTATION]!) as Record<string, string>;
    assert.match(sealed.seal!, /^v1\./);
    await aliceWrites(JSON.stringify({ ...sealed, csv: 'pgpilot.v1.5.0' }));
    const pass = await approverPass(approver);
    assert.deepEqual(pass.approved, [], 'a 1.5.0 target would approve the waiting plan to 1.4.0');
    assert.match(pass.refused.find((r) => r.namespace === 'team1')?.reason ?? '', /seal does not match/);
    const said = /pgpilot\.v1\.5\.0, said to be set by admin, is refused .*seal does not match/;
    assert.ok((await refusals()).some((e) => said.test(e.message ?? '')));
    assert.equal((await call(DELETE, 'DELETE')).status, 200);
  });

  test('a sealed target copied from another Subscription is refused, and the genuine one still approved', async () => {
    const set = await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' }, 'admin', 'pgpilot', 'team2');
    assert.equal(set.status, 200, JSON.stringify(set.body));
    await aliceWrites((await annotations('team2'))[UPGRADE_TARGET_ANNOTATION]!);
    const pass = await approverPass(approver);
    assert.deepEqual(
      pass.approved.map((a) => [a.namespace, a.csvs]),
      [['team2', ['pgpilot.v1.4.0']]],
    );
    assert.deepEqual(
      pass.refused.map((r) => r.namespace),
      ['team1'],
    );
    assert.match(pass.refused[0]!.reason, /copied from another Subscription/);
    await waitingPlan('pgpilot.v1.4.0');
    // Cancelled in both, so that what follows sees only team1's own target.
    assert.equal((await call(DELETE, 'DELETE', undefined, 'admin', 'pgpilot', 'team2')).status, 200);
    assert.equal((await call(DELETE, 'DELETE')).status, 200);
  });

  test('set to 1.4.0 through the console: the approver approves that hop, says who set it, stops there', async () => {
    const set = await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.target!.setBy, 'admin');
    assert.deepEqual(
      set.body.hops!.map((h) => h.to),
      ['pgpilot.v1.4.0'],
    );
    assert.equal(set.body.verdict!.action, 'approve');

    const pass = await approverPass(approver);
    assert.deepEqual(
      pass.approved.map((a) => a.csvs),
      [['pgpilot.v1.4.0']],
    );
    await waitForCsv(admin, 'team1', 'pgpilot.v1.4.0');
    await waitingPlan('pgpilot.v1.5.0');
    await waitFor('the Subscription at 1.4.0', async () =>
      (await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'team1')).status?.installedCSV === 'pgpilot.v1.4.0'
        ? true
        : undefined,
    );

    const again = await approverPass(approver);
    assert.deepEqual(again.approved, [], 'the plan to 1.5.0 is past the target');
    assert.deepEqual(
      again.reached.map((r) => r.csv),
      ['pgpilot.v1.4.0'],
    );
    const after = await call(GET, 'GET');
    assert.equal(after.body.target, undefined, 'the target is removed once reached');
    const plans = (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'team1' })).items;
    assert.ok(
      plans.some(
        (p) => p.status?.phase === 'RequiresApproval' && p.spec.clusterServiceVersionNames.includes('pgpilot.v1.5.0'),
      ),
      'the plan to 1.5.0 still waits',
    );
    const events = (
      await admin.listAll<{ reason?: string; message?: string; involvedObject?: { kind?: string } }>(EVENTS, {
        namespace: 'team1',
      })
    ).items.filter((e) => e.involvedObject?.kind === 'Subscription');
    assert.ok(
      events.some(
        (e) =>
          e.reason === 'UpgradeApproved' &&
          /\(pgpilot\.v1\.4\.0\) approved by olm-console on the way to pgpilot\.v1\.4\.0, the upgrade target set by admin/.test(
            e.message ?? '',
          ),
      ),
      JSON.stringify(events),
    );
    assert.ok(events.some((e) => e.reason === 'UpgradeTargetReached'));
  });

  test('cancel: the target goes, nothing else changes', async () => {
    const set = await call(PUT, 'PUT', { target: 'pgpilot.v1.5.0' });
    assert.equal(set.status, 200);
    const cancel = await call(DELETE, 'DELETE');
    assert.equal(cancel.status, 200);
    assert.equal(cancel.body.target, undefined);
    assert.deepEqual((await approverPass(approver)).approved, []);
  });

  test('an Automatic Subscription takes no target', async () => {
    await admin.patch(
      SUBSCRIPTION_TYPE,
      'pgpilot',
      { spec: { installPlanApproval: 'Automatic' } },
      { namespace: 'team1', type: 'merge' },
    );
    const res = await call(PUT, 'PUT', { target: 'pgpilot.v1.5.0' });
    assert.equal(res.status, 409);
    assert.match(res.body.error!.message, /Automatic approval: OLM upgrades it to the channel head by itself/);
  });
});
