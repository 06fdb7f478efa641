// "Upgrade up to a version" against the sandbox: PgPilot at 1.0.0 on channel fast (1.0.0 → 1.4.0
// → 1.5.0, one InstallPlan a hop) given the target 1.4.0. The approver approves the plan to 1.4.0,
// records who set the target, and once 1.4.0 is installed removes the target, leaving the plan to
// 1.5.0 waiting. Refused: a version off the path, an Automatic Subscription, and people who may not
// approve InstallPlans themselves — also when they write the target on the Subscription directly,
// alter a sealed one, copy one from another Subscription, write back one cancelled, replaced or
// reached, or aim one at another channel or catalog: the approver approves nothing for it. Nor
// for a target whose setter has since lost the right to approve InstallPlans.
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
const RBAC = 'rbac.authorization.k8s.io';
const ROLES = { group: RBAC, version: 'v1', plural: 'roles', namespaced: true, kind: 'Role' };
const ROLE_BINDINGS = { group: RBAC, version: 'v1', plural: 'rolebindings', namespaced: true, kind: 'RoleBinding' };

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
    assert.match(sealed.seal!, /^v2\./);
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

  /** The target annotation as the console wrote it, as anyone who may read the Subscription saves it. */
  const saved = async () => (await annotations())[UPGRADE_TARGET_ANNOTATION]!;
  const refusedIn = (pass: { refused: { namespace: string; reason: string }[] }) =>
    pass.refused.find((r) => r.namespace === 'team1')?.reason ?? '';

  test('a cancelled target written back is refused: a target is used once', async () => {
    assert.equal((await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' })).status, 200);
    const value = await saved();
    assert.equal((await call(DELETE, 'DELETE')).status, 200);
    await aliceWrites(value);
    const pass = await approverPass(approver);
    assert.deepEqual(pass.approved, [], 'the plan to 1.4.0 is not approved for a cancelled target');
    assert.match(refusedIn(pass), /not the live target of this Subscription: a target is used once/);
    await waitingPlan('pgpilot.v1.4.0');
    const said = /pgpilot\.v1\.4\.0, said to be set by admin, is refused .*cancelled, reached or replaced/;
    assert.ok((await refusals()).some((e) => said.test(e.message ?? '')));
    assert.match((await call(GET, 'GET')).body.refused ?? '', /not the live target/);
    assert.equal((await call(DELETE, 'DELETE')).status, 200);
  });

  test('a replaced target written back over the new one is refused', async () => {
    assert.equal((await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' })).status, 200);
    const first = await saved();
    assert.equal((await call(PUT, 'PUT', { target: 'pgpilot.v1.5.0' })).status, 200);
    await aliceWrites(first);
    const pass = await approverPass(approver);
    assert.deepEqual(pass.approved, []);
    assert.match(refusedIn(pass), /not the live target/);
    assert.equal((await call(DELETE, 'DELETE')).status, 200);
  });

  test('a target removed by hand rather than cancelled is retired at the next pass, its copy refused', async () => {
    assert.equal((await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' })).status, 200);
    const value = await saved();
    const gone = { metadata: { annotations: { [UPGRADE_TARGET_ANNOTATION]: null } } };
    await admin.patch(SUBSCRIPTION_TYPE, 'pgpilot', gone, { namespace: 'team1', type: 'merge' });
    const later = () => Date.now() + 60_000;
    assert.equal((await approverPass(approver, { now: later })).retired, 1);
    await aliceWrites(value);
    const pass = await approverPass(approver);
    assert.deepEqual(pass.approved, []);
    assert.match(refusedIn(pass), /not the live target/);
    assert.equal((await call(DELETE, 'DELETE')).status, 200);
  });

  test('a target aimed at another channel or catalog is refused: they are sealed with it', async () => {
    const alice = clientAs(sb.sandbox, 'alice');
    const spec = async (change: Record<string, string>) =>
      alice.patch(SUBSCRIPTION_TYPE, 'pgpilot', { spec: change }, { namespace: 'team1', type: 'merge' });
    assert.equal((await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' })).status, 200);
    try {
      // Channel stable also reaches pgpilot.v1.4.0: only the seal tells the two apart.
      await spec({ channel: 'stable' });
      const moved = await approverPass(approver);
      assert.deepEqual(moved.approved, []);
      assert.match(refusedIn(moved), /changed since the target was set \(channel fast → stable\)/);
      await spec({ channel: 'fast', source: 'look-alike-catalog' });
      const elsewhere = await approverPass(approver);
      assert.deepEqual(elsewhere.approved, []);
      assert.match(refusedIn(elsewhere), /\(catalog \S+ → look-alike-catalog\)/);
    } finally {
      const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'team1');
      const source = JSON.parse((await saved()) ?? '{}') as { source?: string };
      if (sub.spec.source !== source.source) await spec({ source: source.source!, channel: 'fast' });
      assert.equal((await call(DELETE, 'DELETE')).status, 200);
    }
    await waitingPlan('pgpilot.v1.4.0');
  });

  test('a setter who has lost the right to approve InstallPlans gets nothing approved', async () => {
    const rule = { apiGroups: ['operators.coreos.com'], resources: ['installplans'], verbs: ['get', 'update'] };
    const meta = { name: 'installplan-approver', namespace: 'team1' };
    await admin.create(ROLES, { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: meta, rules: [rule] });
    await admin.create(ROLE_BINDINGS, {
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: meta,
      roleRef: { apiGroup: RBAC, kind: 'Role', name: meta.name },
      subjects: [{ apiGroup: RBAC, kind: 'User', name: 'alice' }],
    });
    // alice reads the catalog through its PackageManifest, whose edges come from the console's
    // shared copy of the registry, which somebody who may read the registry loaded first.
    assert.equal((await call(GET, 'GET')).status, 200);
    const set = await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' }, 'alice');
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.verdict?.action, 'approve', 'while she holds the right, the plan is on its way');
    await admin.delete(ROLE_BINDINGS, meta.name, { namespace: 'team1' });
    const pass = await approverPass(approver);
    assert.deepEqual(pass.approved, [], 'her binding is gone: the approver does not act for her');
    assert.match(refusedIn(pass), /alice, who set it, may no longer approve InstallPlans in team1/);
    assert.ok((await refusals()).some((e) => /said to be set by alice, .*may no longer approve/.test(e.message ?? '')));
    assert.match((await call(GET, 'GET')).body.refused ?? '', /may no longer approve InstallPlans/);
    await waitingPlan('pgpilot.v1.4.0');
    assert.equal((await call(DELETE, 'DELETE')).status, 200);
    await admin.delete(ROLES, meta.name, { namespace: 'team1' });
  });

  let reachedValue = '';

  test('set to 1.4.0 through the console: the approver approves that hop, says who set it, stops there', async () => {
    const set = await call(PUT, 'PUT', { target: 'pgpilot.v1.4.0' });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    assert.equal(set.body.target!.setBy, 'admin');
    assert.deepEqual(
      set.body.hops!.map((h) => h.to),
      ['pgpilot.v1.4.0'],
    );
    assert.equal(set.body.verdict!.action, 'approve');
    reachedValue = await saved();

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

  test('a reached target written back is refused, not reached again', async () => {
    assert.ok(reachedValue, 'the target reached above');
    await aliceWrites(reachedValue);
    const pass = await approverPass(approver);
    assert.deepEqual(pass.reached, []);
    assert.match(refusedIn(pass), /not the live target/);
    assert.equal((await call(DELETE, 'DELETE')).status, 200);
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
