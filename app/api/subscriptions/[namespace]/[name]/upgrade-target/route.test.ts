// "Upgrade up to a version" against the sandbox: PgPilot at 1.0.0 on channel fast (1.0.0 → 1.4.0
// → 1.5.0, one InstallPlan a hop) given the target 1.4.0. The approver approves the plan to 1.4.0,
// records who set the target, and once 1.4.0 is installed removes the target, leaving the plan to
// 1.5.0 waiting. Refused: a version off the path, an Automatic Subscription, and people who may not
// approve InstallPlans themselves.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { UPGRADE_TARGET_ANNOTATION } from '@/lib/olm/install/upgrade-target';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
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
  const waitingPlan = (csv: string) => waitFor(`a plan for ${csv} waiting`, async () => (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'team1' })).items.find((p) => p.status?.phase === 'RequiresApproval' && p.spec.clusterServiceVersionNames.includes(csv)));
  before(async () => {
    process.env.OLM_CONSOLE_UPGRADE_APPROVER = 'console';
    ({ GET, PUT, DELETE } = await import('./route'));
    admin = sb.admin;
    approver = await approverClient('console');
    await subscribe(admin, { namespace: 'team1', package: 'pgpilot', channel: 'fast', targets: ['team1'], approval: 'Manual', startingCSV: 'pgpilot.v1.0.0' });
    const first = await waitingPlan('pgpilot.v1.0.0');
    await admin.patch(INSTALL_PLAN_TYPE, first.metadata!.name!, { spec: { approved: true } }, { namespace: 'team1', type: 'merge' });
    await waitForCsv(admin, 'team1', 'pgpilot.v1.0.0');
    await waitingPlan('pgpilot.v1.4.0');
  });
  after(() => {
    delete process.env.OLM_CONSOLE_UPGRADE_APPROVER;
  });

  const call = (h: Handler, method: string, body?: unknown, user = 'admin', name = 'pgpilot') =>
    sb.call<UpgradeTargetView & { error?: { message: string } }>(h, `/api/subscriptions/team1/${name}/upgrade-target`, { method, user, ...(body ? { body } : {}), params: { namespace: 'team1', name } });

  test('the path offered from 1.0.0: one InstallPlan a hop', async () => {
    const { status, body } = await call(GET, 'GET');
    assert.equal(status, 200);
    assert.deepEqual(body.path.map((s) => s.to), ['pgpilot.v1.4.0', 'pgpilot.v1.5.0']);
    assert.equal(body.target, undefined);
    assert.equal(body.approverConfigured, true);
  });

  test('refused: off the path, and for people who may not approve plans themselves', async () => {
    const off = await call(PUT, 'PUT', { target: 'pgpilot.v1.3.0' });
    assert.equal(off.status, 409);
    assert.match(off.body.error!.message, /pgpilot\.v1\.3\.0 is not on the update path from the installed version \(pgpilot\.v1\.4\.0 → pgpilot\.v1\.5\.0\)/);
    const alice = await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' }, 'alice');
    assert.equal(alice.status, 403);
    assert.match(alice.body.error!.message, /you may not approve them yourself/);
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'team1');
    assert.equal(sub.metadata?.annotations?.[UPGRADE_TARGET_ANNOTATION], undefined, 'nothing was written');
  });

  test('set to 1.4.0: the approver approves that hop, says who set it, and stops there', async () => {
    const set = await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.target!.setBy, 'admin');
    assert.deepEqual(set.body.hops!.map((h) => h.to), ['pgpilot.v1.4.0']);
    assert.equal(set.body.verdict!.action, 'approve');

    const pass = await approverPass(approver);
    assert.deepEqual(pass.approved.map((a) => a.csvs), [['pgpilot.v1.4.0']]);
    await waitForCsv(admin, 'team1', 'pgpilot.v1.4.0');
    await waitingPlan('pgpilot.v1.5.0');
    await waitFor('the Subscription at 1.4.0', async () => ((await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'team1')).status?.installedCSV === 'pgpilot.v1.4.0' ? true : undefined));

    const again = await approverPass(approver);
    assert.deepEqual(again.approved, [], 'the plan to 1.5.0 is past the target');
    assert.deepEqual(again.reached.map((r) => r.csv), ['pgpilot.v1.4.0']);
    const after = await call(GET, 'GET');
    assert.equal(after.body.target, undefined, 'the target is removed once reached');
    const plans = (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: 'team1' })).items;
    assert.ok(plans.some((p) => p.status?.phase === 'RequiresApproval' && p.spec.clusterServiceVersionNames.includes('pgpilot.v1.5.0')), 'the plan to 1.5.0 still waits');
    const events = (await admin.listAll<{ reason?: string; message?: string; involvedObject?: { kind?: string } }>(EVENTS, { namespace: 'team1' })).items.filter((e) => e.involvedObject?.kind === 'Subscription');
    assert.ok(events.some((e) => e.reason === 'UpgradeApproved' && /\(pgpilot\.v1\.4\.0\) approved by olm-console on the way to pgpilot\.v1\.4\.0, the upgrade target set by admin/.test(e.message ?? '')), JSON.stringify(events));
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
    await admin.patch(SUBSCRIPTION_TYPE, 'pgpilot', { spec: { installPlanApproval: 'Automatic' } }, { namespace: 'team1', type: 'merge' });
    const res = await call(PUT, 'PUT', { target: 'pgpilot.v1.5.0' });
    assert.equal(res.status, 409);
    assert.match(res.body.error!.message, /Automatic approval: OLM upgrades it to the channel head by itself/);
  });
});
