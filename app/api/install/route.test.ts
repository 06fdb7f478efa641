// Installs through the plan and apply routes against the sandbox, as a console page sends them
// (session cookie, CSRF header, same Origin); what was written is read back from the cluster
// with the admin's own client, not from the route's answer.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { isKubeError } from '@/lib/k8s/errors';
import { retryPolicy } from '@/lib/k8s/retry';
import type { InstallPlanResult } from '@/lib/olm/install/plan';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '@/lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { NAMESPACE_TYPE } from '@/lib/server/install';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';

type Handler = (req: Request) => Promise<Response>;
type ErrorBody = {
  error: {
    code: number;
    reason: string;
    message: string;
    details?: { blockers?: { code: string }[]; rolledBack?: unknown[] };
  };
};
type ApplyBody = {
  alreadyInstalled: boolean;
  created: { kind: string; name: string }[];
  reused: { kind: string }[];
  approval: string;
};

const demo = { namespace: 'olm', name: 'olm-console-demo' };

describe('POST /api/install/plan and /api/install', () => {
  const sb = routeSandbox();
  let plan: Handler;
  let apply: Handler;
  let admin: KubeClient;
  before(async () => {
    plan = (await import('./plan/route')).POST;
    apply = (await import('./route')).POST;
    admin = sb.admin;
  });

  const send = <T>(h: Handler, body: unknown, user = 'admin', extra: { origin?: string; csrf?: string | null } = {}) =>
    sb.call<T & ErrorBody>(h, '/api/install', { method: 'POST', user, body, ...extra });
  const install = (over: Record<string, unknown>) => ({ catalog: demo, approval: 'Automatic', ...over });

  test('AllNamespaces into the global operators namespace: reuses its group, creates the Subscription; again is a no-op', async () => {
    const body = install({
      package: 'certwarden',
      channel: 'stable',
      namespace: 'operators',
      installMode: 'AllNamespaces',
    });
    const p = await send<InstallPlanResult>(plan, body);
    assert.equal(p.status, 200);
    assert.deepEqual(
      p.body.objects.map((o) => [o.action, o.kind]),
      [
        ['reuse', 'Namespace'],
        ['reuse', 'OperatorGroup'],
        ['create', 'Subscription'],
      ],
    );
    assert.deepEqual(p.body.blockers, []);
    const a = await send<ApplyBody>(apply, body);
    assert.equal(a.status, 201);
    assert.deepEqual(
      a.body.created.map((c) => c.kind),
      ['Subscription'],
    );
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'operators');
    assert.deepEqual(
      [sub.spec.channel, sub.spec.installPlanApproval, sub.spec.source],
      ['stable', 'Automatic', 'olm-console-demo'],
    );
    const again = await send<ApplyBody>(apply, body);
    assert.equal(again.status, 200);
    assert.equal(again.body.alreadyInstalled, true);
    const other = await send<ApplyBody>(apply, { ...body, approval: 'Manual' });
    assert.equal(other.status, 409);
    assert.match(other.body.error.message, /already subscribed in operators/);
  });

  test('SingleNamespace into a new namespace watching another: Namespace, OperatorGroup, Subscription', async () => {
    const body = install({
      package: 'vaultkeeper',
      channel: 'stable',
      namespace: 'team1-operator',
      installMode: 'SingleNamespace',
      targetNamespaces: ['team1'],
    });
    const p = await send<InstallPlanResult>(plan, body);
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.deepEqual(
      p.body.objects.map((o) => [o.action, o.kind]),
      [
        ['create', 'Namespace'],
        ['create', 'OperatorGroup'],
        ['create', 'Subscription'],
      ],
    );
    assert.ok(p.body.warnings.some((w) => w.code === 'namespaceNotSuggested' && /vaultkeeper-system/.test(w.message)));
    const a = await send<ApplyBody>(apply, body);
    assert.equal(a.status, 201, JSON.stringify(a.body));
    const og = (await admin.list<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace: 'team1-operator' })).items;
    assert.deepEqual(
      og.map((g) => g.spec?.targetNamespaces),
      [['team1']],
    );
    await admin.get(SUBSCRIPTION_TYPE, 'vaultkeeper', 'team1-operator');
  });

  test('the suggested namespace is created from its template, labels included', async () => {
    const body = install({
      package: 'vaultkeeper',
      channel: 'stable',
      namespace: 'vaultkeeper-system',
      installMode: 'OwnNamespace',
    });
    const p = await send<InstallPlanResult>(plan, body);
    const ns = p.body.objects.find((o) => o.kind === 'Namespace')!;
    assert.equal(ns.action, 'create');
    assert.ok(
      Object.keys((ns.object.metadata as { labels?: object }).labels ?? {}).length > 0,
      'the template has labels',
    );
    assert.ok(!p.body.warnings.some((w) => w.code === 'namespaceNotSuggested'));
  });

  test('a version below the head forces Manual approval, with startingCSV', async () => {
    const body = install({
      package: 'pgpilot',
      channel: 'stable',
      version: '1.2.0',
      namespace: 'pg',
      installMode: 'OwnNamespace',
    });
    const p = await send<InstallPlanResult>(plan, body);
    assert.equal(p.body.approval, 'Manual');
    assert.equal(p.body.startingCSV, 'pgpilot.v1.2.0');
    assert.ok(p.body.warnings.some((w) => w.code === 'nonHeadForcesManual'));
    const a = await send<ApplyBody>(apply, body);
    assert.equal(a.status, 201);
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg');
    assert.deepEqual([sub.spec.installPlanApproval, sub.spec.startingCSV], ['Manual', 'pgpilot.v1.2.0']);
    // Another operator in pg now shares the Manual approval.
    const next = await send<InstallPlanResult>(
      plan,
      install({ package: 'cachely', channel: 'alpha', namespace: 'pg', installMode: 'OwnNamespace' }),
    );
    assert.ok(
      next.body.warnings.some((w) => w.code === 'sharedApprovalManual' && /pgpilot/.test(w.message)),
      JSON.stringify(next.body.warnings),
    );
  });

  test('an install mode the version does not support: 400; an OperatorGroup that does not fit: 409', async () => {
    const unsupported = await send<ApplyBody>(
      apply,
      install({ package: 'quillmq', channel: 'stable', namespace: 'q', installMode: 'AllNamespaces' }),
    );
    assert.equal(unsupported.status, 400);
    assert.match(unsupported.body.error.message, /does not support AllNamespaces; it supports OwnNamespace/);
    const mismatch = await send<ApplyBody>(
      apply,
      install({ package: 'pgpilot', channel: 'stable', namespace: 'operators', installMode: 'OwnNamespace' }),
    );
    assert.equal(mismatch.status, 409);
    assert.match(mismatch.body.error.message, /already has OperatorGroup .* which targets all namespaces/);
    await assert.rejects(admin.get(SUBSCRIPTION_TYPE, 'pgpilot', 'operators'), (e) => isKubeError(e, 404));
  });

  test('a failed Subscription write removes the Namespace and OperatorGroup this install created', async () => {
    // Failing every attempt: a create that fails fewer times is sent again and succeeds (lib/k8s/retry.ts).
    assert.ok(
      sb.faults.apply({
        failCreate: { resource: 'subscriptions', namespace: 'rollback-ns', times: retryPolicy().maxAttempts },
      }).ok,
    );
    const a = await send<ApplyBody>(
      apply,
      install({ package: 'cachely', channel: 'alpha', namespace: 'rollback-ns', installMode: 'OwnNamespace' }),
    );
    assert.equal(a.status, 500);
    assert.match(a.body.error.message, /creating Subscription rollback-ns\/cachely failed: .* \(tried \d+ times in/);
    assert.match(
      a.body.error.message,
      /removed what this install had created \(OperatorGroup rollback-ns\/rollback-ns-operators, Namespace rollback-ns\)/,
    );
    // The namespace is terminating or gone; either way nothing of the install is left.
    await assert.rejects(admin.get(OPERATOR_GROUP_TYPE, 'rollback-ns-operators', 'rollback-ns'), (e) =>
      isKubeError(e, 404),
    );
    try {
      const ns = await admin.get<{ metadata?: { deletionTimestamp?: string } }>(NAMESPACE_TYPE, 'rollback-ns');
      assert.ok(ns.metadata?.deletionTimestamp, 'the namespace is being deleted');
    } catch (e) {
      assert.ok(isKubeError(e, 404));
    }
  });

  test('a person without rights is refused before anything is written, with the reason', async () => {
    const p = await send<InstallPlanResult>(
      plan,
      install({ package: 'cachely', channel: 'alpha', namespace: 'default', installMode: 'OwnNamespace' }),
      'bob',
    );
    assert.equal(p.status, 200);
    assert.ok(p.body.blockers.some((b) => b.code === 'forbidden'));
    const a = await send<ApplyBody>(
      apply,
      install({ package: 'cachely', channel: 'alpha', namespace: 'default', installMode: 'OwnNamespace' }),
      'bob',
    );
    assert.equal(a.status, 403);
    assert.match(a.body.error.message, /you may not create/);
  });

  test('a namespace admin installs into their namespace from a global catalog, once it has a group', async () => {
    const body = install({ package: 'quillmq', channel: 'stable', namespace: 'team1', installMode: 'OwnNamespace' });
    // OLM's aggregated roles let namespace admins subscribe, not create OperatorGroups.
    const first = await send<InstallPlanResult>(plan, body, 'alice');
    assert.deepEqual(
      first.body.blockers.map((b) => b.code),
      ['forbidden'],
    );
    assert.match(first.body.blockers[0]!.message, /has no OperatorGroup and you may not create one/);
    await admin.create(OPERATOR_GROUP_TYPE, {
      metadata: { name: 'team1', namespace: 'team1' },
      spec: { targetNamespaces: ['team1'] },
    });
    const p = await send<InstallPlanResult>(plan, body, 'alice');
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.deepEqual(p.body.blockers, []);
    const a = await send<ApplyBody>(apply, body, 'alice');
    assert.equal(a.status, 201, JSON.stringify(a.body));
  });

  test('cross-site writes and missing CSRF tokens are refused; bad bodies name the field', async () => {
    const body = install({ package: 'cachely', channel: 'alpha', namespace: 'x', installMode: 'OwnNamespace' });
    const evil = await send<ApplyBody>(apply, body, 'admin', { origin: 'https://evil.example' });
    assert.equal(evil.status, 403);
    assert.match(evil.body.error.message, /cross-site/);
    const noToken = await send<ApplyBody>(apply, body, 'admin', { csrf: null });
    assert.equal(noToken.status, 403);
    const bad = await send<ApplyBody>(apply, { ...body, namespace: 'Not A Name', installMode: 'Everywhere' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /namespace: must be lowercase/);
    assert.match(bad.body.error.message, /installMode: must be one of/);
    const unknown = await send<ApplyBody>(apply, { ...body, package: 'nope' });
    assert.equal(unknown.status, 404);
    const channel = await send<ApplyBody>(apply, { ...body, channel: 'beta' });
    assert.equal(channel.status, 404);
    assert.match(channel.body.error.message, /no channel beta/);
  });
});
