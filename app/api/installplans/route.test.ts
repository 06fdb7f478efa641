// InstallPlans through the routes against the sandbox: a Manual install waiting for approval,
// its steps, approval with a stale and a fresh resourceVersion, approval of a plan OLM has
// written to since (same CSVs) and of one that changed, the upgrade plan that follows, deny, and
// a person who may not approve.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { INSTALL_PLAN_TYPE } from '@/lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import type { InstallPlanSummary } from '@/lib/olm/status/install-plan-status';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

type ListBody = {
  installPlans: {
    name: string;
    namespace: string;
    resourceVersion: string;
    subscriptions: string[];
    summary: InstallPlanSummary;
  }[];
};
type DetailBody = {
  summary: InstallPlanSummary;
  subscriptions: string[];
  denied?: { at: string; by?: string };
  stepGroups: { group: string; steps: { resource: { kind: string }; manifest: unknown }[] }[];
};

describe('InstallPlans: list, details, approve, deny', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let list: (req: Request) => Promise<Response>;
  let detail: Handler;
  let approve: Handler;
  let deny: Handler;
  let admin: KubeClient;
  before(async () => {
    list = (await import('./route')).GET;
    detail = (await import('./[namespace]/[name]/route')).GET;
    approve = (await import('./[namespace]/[name]/approve/route')).POST;
    deny = (await import('./[namespace]/[name]/deny/route')).POST;
    admin = sb.admin;
    await subscribe(admin, {
      namespace: 'pg',
      package: 'pgpilot',
      channel: 'stable',
      approval: 'Manual',
      startingCSV: 'pgpilot.v1.2.0',
      targets: ['pg'],
    });
  });

  const getAs = <T>(h: Handler, path: string, params: Record<string, string> = {}, user = 'admin') =>
    sb.call<T & ErrorBody>(h, path, { user, bearer: true, params });
  const post = <T>(h: Handler, name: string, body: unknown, user = 'admin') =>
    sb.call<T & ErrorBody>(h, `/api/installplans/pg/${name}`, {
      method: 'POST',
      user,
      body,
      params: { namespace: 'pg', name },
    });
  const waiting = () =>
    waitFor('a plan waiting for approval', async () =>
      (await getAs<ListBody>(list, '/api/installplans?namespace=pg')).body.installPlans.find(
        (p) => p.summary.needsApproval,
      ),
    );

  test('a Manual install waits for approval; stale approvals are refused; approval installs it', async () => {
    const plan = await waiting();
    assert.deepEqual(plan.subscriptions, ['pgpilot']);
    assert.deepEqual(plan.summary.csvNames, ['pgpilot.v1.2.0']);
    const d = await getAs<DetailBody>(detail, '/x', { namespace: 'pg', name: plan.name });
    assert.equal(d.status, 200);
    const groups = d.body.stepGroups.map((g) => g.group);
    assert.ok(
      groups.includes('ClusterServiceVersion') &&
        groups.includes('CustomResourceDefinition') &&
        groups.includes('RBAC'),
      groups.join(),
    );
    const stale = await post(approve, plan.name, { resourceVersion: '1' });
    assert.equal(stale.status, 409);
    assert.match(stale.body.error.message, /changed since you loaded it/);
    // Real OLM writes to a waiting plan after the person has loaded it (its olm-operator labels
    // the plan a Subscription points at): the plan they saw is still the one that waits.
    const touched = await admin.patch<{ metadata?: { resourceVersion?: string } }>(
      INSTALL_PLAN_TYPE,
      plan.name,
      { metadata: { annotations: { 'example.com/touched': 'yes' } } },
      { namespace: 'pg', type: 'merge' },
    );
    assert.notEqual(touched.metadata?.resourceVersion, plan.resourceVersion);
    const other = await post(approve, plan.name, {
      resourceVersion: plan.resourceVersion,
      clusterServiceVersionNames: ['pgpilot.v1.4.0'],
    });
    assert.equal(other.status, 409);
    assert.match(
      other.body.error.message,
      /changed since you loaded it \(it is now requires approval; it installs pgpilot\.v1\.2\.0\)/,
    );
    const bare = await post(approve, plan.name, { resourceVersion: plan.resourceVersion });
    assert.equal(bare.status, 409, 'without the CSVs seen, only the resourceVersion can say it is the same plan');
    const ok = await post<{ summary: InstallPlanSummary }>(approve, plan.name, {
      resourceVersion: plan.resourceVersion,
      clusterServiceVersionNames: plan.summary.csvNames,
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.summary.approved, true);
    await waitForCsv(admin, 'pg', 'pgpilot.v1.2.0');
    const again = await post(approve, plan.name, {});
    assert.equal(again.status, 409);
    assert.match(again.body.error.message, /already approved/);
  });

  test('the upgrade plan that follows can be denied: it stays unapproved, and that is explained', async () => {
    const next = await waitFor('the upgrade plan', async () => {
      const p = await waiting();
      return p.summary.csvNames.includes('pgpilot.v1.4.0') ? p : undefined;
    });
    const denied = await post<{ summary: InstallPlanSummary; explanation: string }>(deny, next.name, {
      resourceVersion: next.resourceVersion,
    });
    assert.equal(denied.status, 200);
    assert.equal(denied.body.summary.approved, false);
    assert.match(denied.body.explanation, /stays unapproved/);
    const d = await getAs<DetailBody>(detail, '/x', { namespace: 'pg', name: next.name });
    assert.ok(d.body.denied?.at);
    const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg');
    assert.equal(sub.status?.installedCSV, 'pgpilot.v1.2.0', 'the operator stays where it was');
  });

  test('a person who may only view cannot approve, and hears why', async () => {
    const plan = await waiting();
    const res = await post(approve, plan.name, {}, 'bob');
    assert.equal(res.status, 403);
    assert.match(res.body.error.message, /bob/);
    const unknown = await post(approve, 'install-nope', {});
    assert.equal(unknown.status, 404);
  });
});
