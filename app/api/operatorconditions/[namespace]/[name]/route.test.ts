// OperatorCondition overrides through the routes, against the sandbox: the conditions with their
// sources, who may override (admin; not alice, admin of team1 only; not bob, a viewer), the plan
// before the write, an override that releases an upgrade the operator held back (the sandbox
// honours it as OLM does), removing it, a change by someone else since the person looked, and bad
// bodies.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { CSV_TYPE, type ClusterServiceVersion } from '@/lib/olm/resources/cluster-service-version';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { OPERATOR_CONDITION_TYPE, type OperatorCondition } from '@/lib/olm/resources/operator-condition';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import type {
  OperatorConditionsList,
  OperatorConditionView,
  OverrideApplied,
  OverridePlan,
} from '@/lib/api/operator-conditions';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const NOT_SAFE = {
  type: 'Upgradeable',
  status: 'False',
  reason: 'Migrating',
  message: 'schema migration running',
  lastTransitionTime: '2026-01-01T00:00:00Z',
};

describe('/api/operatorconditions/<ns>/<csv>', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: Handler;
  let PATCH: Handler;
  let PLAN: Handler;
  let LIST: (req: Request) => Promise<Response>;
  let admin: KubeClient;
  let held: { from: string; to: string };

  /** What the operator does through operator-lib: writes its own condition into spec.conditions. */
  const operatorSays = async (ns: string, csv: string, condition: typeof NOT_SAFE) => {
    await admin.patch(
      OPERATOR_CONDITION_TYPE,
      csv,
      { spec: { conditions: [condition] } },
      { namespace: ns, type: 'merge' },
    );
    await waitFor(`${ns}/${csv} status mirrors the operator`, async () => {
      const oc = await admin.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, csv, ns);
      const c = oc.status?.conditions?.find((x) => x.type === condition.type);
      return c?.status === condition.status && c.observedGeneration === oc.metadata?.generation ? true : undefined;
    });
  };
  const approveWaiting = async (ns: string) => {
    const plan = await waitFor(`a plan waiting in ${ns}`, async () =>
      (await admin.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace: ns })).items.find(
        (p) => p.status?.phase === 'RequiresApproval' && !p.spec.approved,
      ),
    );
    await admin.replace(INSTALL_PLAN_TYPE, { ...plan, spec: { ...plan.spec, approved: true } });
    return plan.spec.clusterServiceVersionNames[0]!;
  };

  before(async () => {
    ({ GET, PATCH } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    ({ GET: LIST } = await import('../../route'));
    admin = sb.admin;
    await subscribe(admin, { namespace: 'pg', package: 'pgpilot', channel: 'stable', targets: ['pg'] });
    await subscribe(admin, { namespace: 'team1', package: 'cachely', channel: 'alpha', targets: ['team1'] });
    await subscribe(admin, {
      namespace: 'pgm',
      package: 'pgpilot',
      channel: 'stable',
      targets: ['pgm'],
      approval: 'Manual',
      startingCSV: 'pgpilot.v1.2.0',
    });
    await approveWaiting('pgm');
    await waitForCsv(admin, 'pg', 'pgpilot.v1.4.0');
    await waitForCsv(admin, 'team1', 'cachely.v0.9.2');
    await waitForCsv(admin, 'pgm', 'pgpilot.v1.2.0');
    await operatorSays('pg', 'pgpilot.v1.4.0', NOT_SAFE);
    // pgm: the operator says an upgrade is not safe, then the next plan is approved: OLM holds it.
    await operatorSays('pgm', 'pgpilot.v1.2.0', NOT_SAFE);
    const to = await approveWaiting('pgm');
    held = { from: 'pgpilot.v1.2.0', to };
    await waitForCsv(admin, 'pgm', to, 'Pending');
  });

  const get = (ns: string, name: string, user = 'admin') =>
    sb.call<OperatorConditionView & ErrorBody>(GET, `/api/operatorconditions/${ns}/${name}`, {
      user,
      params: { namespace: ns, name },
    });
  const write = (
    handler: Handler,
    ns: string,
    name: string,
    body: unknown,
    user = 'admin',
    opts: { csrf?: null } = {},
  ) =>
    sb.call<OverrideApplied & OverridePlan & ErrorBody>(handler, `/api/operatorconditions/${ns}/${name}`, {
      method: handler === PLAN ? 'POST' : 'PATCH',
      user,
      body,
      ...opts,
      params: { namespace: ns, name },
    });
  const override = {
    action: 'set',
    type: 'Upgradeable',
    status: 'True',
    reason: 'KnownIssue',
    message: 'this version always reports a migration',
    seen: null,
  };

  test('GET: each condition with its source, what OLM decides, and that an admin may override', async () => {
    const { status, body } = await get('pg', 'pgpilot.v1.4.0');
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.state, 'present');
    const row = body.rows.find((r) => r.type === 'Upgradeable')!;
    assert.equal(row.effective.source, 'operator');
    assert.equal(row.effective.status, 'False');
    assert.equal(row.effective.reason, 'Migrating');
    assert.equal(row.operator?.from, 'status');
    assert.equal(body.upgrade?.blocked, true);
    assert.equal(body.upgrade?.decidedBy, 'operator');
    assert.deepEqual(body.canOverride, { allowed: true });
  });

  test('alice (admin of team1) and bob (viewer) may not override, and are told why; they cannot write either', async () => {
    const alice = await get('team1', 'cachely.v0.9.2', 'alice');
    assert.equal(alice.status, 200);
    assert.equal(alice.body.canOverride.allowed, false);
    assert.match(alice.body.canOverride.reason ?? '', /^you may not \w+ operatorconditions\b/);
    assert.equal(
      alice.body.state,
      'forbidden',
      "the admin role does not include OperatorConditions, as in OLM's aggregated roles",
    );
    const bob = await get('pg', 'pgpilot.v1.4.0', 'bob');
    assert.equal(bob.status, 200);
    assert.equal(bob.body.canOverride.allowed, false);
    assert.match(bob.body.canOverride.reason ?? '', /^you may not \w+ operatorconditions\b/);
    const denied = await write(PATCH, 'pg', 'pgpilot.v1.4.0', override, 'bob');
    assert.equal(denied.status, 403);
    assert.equal(denied.body.error.reason, 'Forbidden');
    const oc = await admin.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, 'pgpilot.v1.4.0', 'pg');
    assert.equal(oc.spec?.overrides, undefined, 'nothing was written');
  });

  test('plan: the exact merge patch, before and after, and what the override bypasses; nothing written', async () => {
    const before = await admin.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, 'pgpilot.v1.4.0', 'pg');
    const { status, body } = await write(PLAN, 'pg', 'pgpilot.v1.4.0', override);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.noChange, false);
    assert.deepEqual(
      body.patch.spec.overrides?.map((o) => [o.type, o.status, o.reason, o.message]),
      [['Upgradeable', 'True', 'KnownIssue', 'this version always reports a migration']],
    );
    assert.equal(body.before?.effective.source, 'operator');
    assert.equal(body.after?.effective.source, 'override');
    assert.deepEqual([body.upgrade.before.blocked, body.upgrade.after.blocked], [true, false]);
    assert.match(body.warnings.join(' '), /bypasses the operator's own safety check.*schema migration running/);
    const after = await admin.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, 'pgpilot.v1.4.0', 'pg');
    assert.equal(after.metadata?.resourceVersion, before.metadata?.resourceVersion);
  });

  test("an Upgradeable=True override releases the upgrade the operator held back (OLM's rule: the override wins)", async () => {
    const csv = await admin.get<ClusterServiceVersion>(CSV_TYPE, held.to, 'pgm');
    assert.equal(csv.status?.reason, 'OperatorConditionNotUpgradeable');
    const { status, body } = await write(PATCH, 'pgm', held.from, override);
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.view.rows.find((r) => r.type === 'Upgradeable')?.effective.source, 'override');
    assert.ok(body.resourceVersion && body.resourceVersion !== body.sentAt);
    await waitForCsv(admin, 'pgm', held.to);
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pgm');
    assert.equal(sub.status?.installedCSV, held.to);
  });

  test('set, then someone else changes it: the person who saw none gets a 409 naming it; remove with what was seen', async () => {
    // The operator writing its conditions after the person looked is no conflict.
    await operatorSays('pg', 'pgpilot.v1.4.0', { ...NOT_SAFE, message: 'schema migration still running' });
    const set = await write(PATCH, 'pg', 'pgpilot.v1.4.0', override);
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const oc = await admin.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, 'pgpilot.v1.4.0', 'pg');
    assert.deepEqual(
      oc.spec?.overrides?.map((o) => [o.type, o.status, o.reason]),
      [['Upgradeable', 'True', 'KnownIssue']],
    );
    assert.ok(oc.spec?.overrides?.[0]?.lastTransitionTime, 'metav1.Condition needs lastTransitionTime');
    assert.equal(
      oc.spec?.conditions?.[0]?.message,
      'schema migration still running',
      "the operator's conditions are kept",
    );

    const stale = await write(PATCH, 'pg', 'pgpilot.v1.4.0', {
      ...override,
      status: 'False',
      reason: 'Hold',
      message: 'wait for the backup',
    });
    assert.equal(stale.status, 409);
    assert.match(
      stale.body.error.message,
      /Upgradeable override .* was changed meanwhile: it is now True \(KnownIssue\), you saw none/,
    );

    const view = await get('pg', 'pgpilot.v1.4.0');
    assert.equal(view.body.upgrade?.decidedBy, 'override');
    const seen = { status: 'True', reason: 'KnownIssue', message: override.message };
    const removed = await write(PATCH, 'pg', 'pgpilot.v1.4.0', { action: 'remove', type: 'Upgradeable', seen });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.match(removed.body.plan.warnings.join(' '), /wait again/);
    const after = await admin.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, 'pgpilot.v1.4.0', 'pg');
    assert.equal(after.spec?.overrides, undefined);
    const again = await write(PATCH, 'pg', 'pgpilot.v1.4.0', { action: 'remove', type: 'Upgradeable', seen });
    assert.equal(again.status, 409, 'removing what is no longer there, having seen it: someone else removed it');
  });

  test('bad bodies are 400s naming the field; a write without the CSRF token is refused; a copy has no OperatorCondition', async () => {
    const bad = async (body: unknown, field: RegExp) => {
      const r = await write(PATCH, 'pg', 'pgpilot.v1.4.0', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.error.message, field);
    };
    await bad({ ...override, reason: 'known issue' }, /^reason: must be one CamelCase word/);
    await bad({ ...override, message: '  ' }, /^message: must not be empty/);
    await bad({ ...override, status: 'Maybe' }, /^status: must be True, False or Unknown/);
    await bad({ ...override, type: 'has space' }, /^type: /);
    const { seen: _seen, ...noSeen } = override;
    void _seen;
    await bad(noSeen, /^seen: /);
    await bad({ ...override, resourceVersion: '1' }, /resourceVersion/);
    await bad({ action: 'toggle', type: 'Upgradeable', seen: null }, /action must be "set"/);
    const csrf = await write(PATCH, 'pg', 'pgpilot.v1.4.0', override, 'admin', { csrf: null });
    assert.equal(csrf.status, 403);
    const missing = await get('pg', 'nope.v1.0.0');
    assert.equal(missing.body.state, 'absent');
    const write404 = await write(PATCH, 'pg', 'nope.v1.0.0', override);
    assert.equal(write404.status, 404);
    assert.match(write404.body.error.message, /not for copies/);
  });

  test('GET /api/operatorconditions lists every OperatorCondition the person may list', async () => {
    const res = await LIST(sb.request('/api/operatorconditions'));
    assert.equal(res.status, 200);
    const body = (await res.json()) as OperatorConditionsList;
    const names = body.operatorConditions.map((o) => `${o.namespace}/${o.name}`);
    assert.ok(names.includes('pg/pgpilot.v1.4.0') && names.includes('team1/cachely.v0.9.2'), names.join());
    const bob = await LIST(sb.request('/api/operatorconditions?namespace=pg', { user: 'bob' }));
    assert.equal(bob.status, 403);
    const badNs = await LIST(sb.request('/api/operatorconditions?namespace=Not_A_Name'));
    assert.equal(badNs.status, 400);
  });
});
