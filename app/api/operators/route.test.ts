// Installed operators through the routes, against the sandbox: the cluster view folding copies
// into a count, a namespace view showing a copy as a copy, the copies listed a page at a time,
// one operator's details, and an operator that is still being installed.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import type { InstalledOperatorsResponse, OperatorDetails } from '@/lib/api/operators';
import { OPERATOR_GROUP_TYPE } from '@/lib/olm/resources/operator-group';
import { ensureNamespace, subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

describe('GET /api/operators and /api/operators/<ns>/<csv>', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let list: (req: Request) => Promise<Response>;
  let details: Handler;
  let copies: Handler;
  let admin: KubeClient;
  before(async () => {
    list = (await import('./route')).GET;
    details = (await import('./[namespace]/[name]/route')).GET;
    copies = (await import('./[namespace]/[name]/copies/route')).GET;
    admin = sb.admin;
    for (let i = 0; i < 4; i++) await ensureNamespace(admin, `extra-${i}`);
    await subscribe(admin, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
    const csv = await waitFor(
      'certwarden installed',
      async () =>
        (
          await admin.get<{ status?: { installedCSV?: string } }>(
            {
              group: 'operators.coreos.com',
              version: 'v1alpha1',
              plural: 'subscriptions',
              namespaced: true,
              kind: 'Subscription',
            },
            'certwarden',
            'operators',
          )
        ).status?.installedCSV,
    );
    await waitForCsv(admin, 'operators', csv);
  });

  const get = <T>(h: Handler, path: string, params: Record<string, string> = {}, user = 'admin') =>
    sb.call<T & ErrorBody>(h, path, { user, bearer: true, params });

  test('all namespaces: one row per operator, its copies a count', async () => {
    const { status, body } = await get<InstalledOperatorsResponse>(list as Handler, '/api/operators');
    assert.equal(status, 200);
    const rows = body.operators.filter((o) => o.subscription?.package === 'certwarden');
    assert.equal(rows.length, 1, 'copies are not rows');
    const row = rows[0]!;
    assert.equal(row.namespace, 'operators');
    assert.equal(row.managedNamespaces, 'all');
    assert.equal(row.status.phase, 'Succeeded');
    assert.equal(row.upgrade?.label, 'Up to date');
    const namespaces = (
      await admin.list({ group: '', version: 'v1', plural: 'namespaces', namespaced: false, kind: 'Namespace' })
    ).items.length;
    assert.equal(row.copies.count, namespaces - 1);
    assert.equal(body.copies, 0);
  });

  test('one namespace: the copy says where it comes from', async () => {
    const { body } = await get<InstalledOperatorsResponse>(list as Handler, '/api/operators?namespace=team1');
    const row = body.operators.find((o) => o.csvName?.startsWith('certwarden'))!;
    assert.equal(row.copiedFrom, 'operators');
    assert.equal(row.status.label, 'Copied');
    assert.equal(row.subscription, undefined);
    assert.equal(body.copies, 1);
  });

  test('the copies of an operator, a page at a time', async () => {
    const csv = (await get<InstalledOperatorsResponse>(list as Handler, '/api/operators')).body.operators.find(
      (o) => o.subscription?.package === 'certwarden',
    )!.csvName!;
    const first = await get<{ copies: { namespace: string }[]; continue?: string }>(copies, `/x?limit=2`, {
      namespace: 'operators',
      name: csv,
    });
    assert.equal(first.status, 200);
    assert.equal(first.body.copies.length, 2);
    assert.ok(first.body.continue);
    const seen = new Set(first.body.copies.map((c) => c.namespace));
    let cont: string | undefined = first.body.continue;
    while (cont) {
      const page: { body: { copies: { namespace: string }[]; continue?: string } } = await get<{
        copies: { namespace: string }[];
        continue?: string;
      }>(copies, `/x?limit=2&continue=${encodeURIComponent(cont)}`, { namespace: 'operators', name: csv });
      for (const c of page.body.copies) seen.add(c.namespace);
      cont = page.body.continue;
    }
    assert.ok(seen.has('team1') && seen.has('extra-3'));
    assert.ok(!seen.has('operators'));
  });

  test('one operator: Subscription conditions, InstallPlans, group, description and the update path', async () => {
    const csv = (
      await get<InstalledOperatorsResponse>(list as Handler, '/api/operators?namespace=operators')
    ).body.operators.find((o) => o.subscription?.package === 'certwarden')!.csvName!;
    const { status, body } = await get<OperatorDetails>(details, '/x', { namespace: 'operators', name: csv });
    assert.equal(status, 200);
    assert.equal(body.subscription?.object.spec.name, 'certwarden');
    assert.equal(body.subscription?.upgrade.kind, 'up-to-date');
    assert.ok(body.subscription!.conditions.some((c) => c.type === 'CatalogSourcesUnhealthy' && c.status === 'False'));
    assert.ok(body.installPlans.length >= 1);
    assert.equal(body.installPlans[0]!.summary.phase, 'Complete');
    assert.equal(body.operatorGroup?.targets, 'all');
    assert.ok(body.description.providedApis.some((a) => a.kind === 'Certificate'));
    assert.equal(body.updatePath?.reachesHead, true);
    assert.deepEqual(body.updatePath?.steps, [], 'the head is installed');
    assert.equal((body.csv.metadata as { managedFields?: unknown }).managedFields, undefined);
    assert.deepEqual(body.subscription?.channels, [{ name: 'stable', current: true, allowed: true }]);
    assert.equal(body.catalog?.state, 'READY');
    assert.equal(body.catalog?.healthy, true);
    const copy = await get<OperatorDetails>(details, '/x', { namespace: 'team1', name: csv });
    assert.equal(copy.body.copiedFrom, 'operators');
    assert.equal(copy.body.sourceSubscription, 'certwarden', 'a copy names the Subscription that installs its source');
    assert.equal(copy.body.subscription, undefined);
    // team1's own group, for operators installed there, is not the copy's: its operator's is.
    await admin.create(OPERATOR_GROUP_TYPE, {
      metadata: { name: 'team1-local', namespace: 'team1' },
      spec: { targetNamespaces: ['team1'] },
    });
    try {
      const again = await get<OperatorDetails>(details, '/x', { namespace: 'team1', name: csv });
      assert.deepEqual(again.body.operatorGroup && { ...again.body.operatorGroup, conditions: undefined }, {
        name: 'global-operators',
        namespace: 'operators',
        targets: 'all',
        createdByConsole: false,
        conditions: undefined,
      });
      // alice may not read it: its name from the copy, its targets unknown.
      const hers = await get<OperatorDetails>(details, '/x', { namespace: 'team1', name: csv }, 'alice');
      assert.equal(hers.status, 200);
      assert.deepEqual(hers.body.operatorGroup, {
        name: 'global-operators',
        namespace: 'operators',
        createdByConsole: false,
      });
    } finally {
      await admin.delete(OPERATOR_GROUP_TYPE, 'team1-local', { namespace: 'team1' });
    }
  });

  test('an operator that cannot be resolved shows as installing, with the reason', async () => {
    await subscribe(admin, { namespace: 'logs', package: 'logship', channel: 'stable', targets: ['logs'] });
    const row = await waitFor('logship row failing', async () => {
      const r = (
        await get<InstalledOperatorsResponse>(list as Handler, '/api/operators?namespace=logs')
      ).body.operators.find((o) => o.subscription?.package === 'logship');
      return r?.upgrade?.kind === 'failed' ? r : undefined;
    });
    assert.equal(row.status.label, 'Installing');
    assert.match(row.upgrade!.detail, /metrics-agent-core/);
  });

  test('a namespace-only user: their namespace works, the cluster view is a 403 with the reason', async () => {
    const mine = await get<InstalledOperatorsResponse>(list as Handler, '/api/operators?namespace=team1', {}, 'alice');
    assert.equal(mine.status, 200);
    const all = await get<InstalledOperatorsResponse>(list as Handler, '/api/operators', {}, 'alice');
    assert.equal(all.status, 403);
    assert.match(all.body.error.message, /alice/);
  });

  test('bad and unknown names', async () => {
    const bad = await get<OperatorDetails>(details, '/x', { namespace: 'NOPE!', name: 'x' });
    assert.equal(bad.status, 400);
    const missing = await get<OperatorDetails>(details, '/x', { namespace: 'operators', name: 'nope.v1' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.reason, 'NotFound');
  });
  test('an operator that declares itself not upgradeable is named as what holds its next step back', async () => {
    const OC = {
      group: 'operators.coreos.com',
      version: 'v2',
      plural: 'operatorconditions',
      namespaced: true,
      kind: 'OperatorCondition',
    };
    const csv = (
      await get<InstalledOperatorsResponse>(list as Handler, '/api/operators?namespace=operators')
    ).body.operators.find((o) => o.subscription?.package === 'certwarden')!.csvName!;
    const oc = await waitFor('the OperatorCondition', async () => {
      try {
        return await admin.get<{ metadata: Record<string, unknown>; spec?: Record<string, unknown> }>(
          OC,
          csv,
          'operators',
        );
      } catch {
        return undefined;
      }
    });
    await admin.replace(OC, {
      ...oc,
      spec: {
        ...oc.spec,
        conditions: [
          {
            type: 'Upgradeable',
            status: 'False',
            reason: 'Migrating',
            message: 'a data migration is running',
            lastTransitionTime: new Date().toISOString(),
          },
        ],
      },
    });
    const blockers = await waitFor('the blocker reported', async () => {
      const b = (await get<OperatorDetails>(details, '/x', { namespace: 'operators', name: csv })).body.upgradeBlockers;
      return b.length ? b : undefined;
    });
    assert.equal(blockers.length, 1);
    assert.match(blockers[0]!, /not upgradeable: a data migration is running/);
  });

  test('a CSV that OLM installed another in place of names it, until it is gone', async () => {
    const OC = {
      group: 'operators.coreos.com',
      version: 'v2',
      plural: 'operatorconditions',
      namespaced: true,
      kind: 'OperatorCondition',
    };
    const SUB = {
      group: 'operators.coreos.com',
      version: 'v1alpha1',
      plural: 'subscriptions',
      namespaced: true,
      kind: 'Subscription',
    };
    await subscribe(admin, { namespace: 'follow', package: 'pgpilot', channel: 'stable', targets: ['follow'] });
    await waitForCsv(admin, 'follow', 'pgpilot.v1.4.0');
    const before = await get<OperatorDetails>(details, '/x', { namespace: 'follow', name: 'pgpilot.v1.4.0' });
    assert.equal(before.body.replacedBy, undefined, 'the installed CSV is replaced by nothing');
    // Hold the new version back, so the old CSV stays while OLM has already installed the next.
    const oc = await waitFor('the OperatorCondition', async () =>
      admin
        .get<{ metadata: Record<string, unknown>; spec?: Record<string, unknown> }>(OC, 'pgpilot.v1.4.0', 'follow')
        .catch(() => undefined),
    );
    await admin.replace(OC, {
      ...oc,
      spec: {
        ...oc.spec,
        conditions: [
          {
            type: 'Upgradeable',
            status: 'False',
            reason: 'Migrating',
            message: 'hold',
            lastTransitionTime: new Date().toISOString(),
          },
        ],
      },
    });
    const sub = await admin.get<{ metadata: Record<string, unknown>; spec: Record<string, unknown> }>(
      SUB,
      'pgpilot',
      'follow',
    );
    await admin.replace(SUB, { ...sub, spec: { ...sub.spec, channel: 'fast' } });
    const replacedBy = await waitFor(
      'the replacement named',
      async () =>
        (await get<OperatorDetails>(details, '/x', { namespace: 'follow', name: 'pgpilot.v1.4.0' })).body.replacedBy,
    );
    assert.deepEqual(replacedBy, { csv: 'pgpilot.v1.5.0', subscription: 'pgpilot' });
    const next = await get<OperatorDetails>(details, '/x', { namespace: 'follow', name: 'pgpilot.v1.5.0' });
    assert.equal(next.body.replacedBy, undefined);
    assert.equal(next.body.subscription?.object.metadata?.name, 'pgpilot');
    const held = await admin.get<{ metadata: Record<string, unknown>; spec?: Record<string, unknown> }>(
      OC,
      'pgpilot.v1.4.0',
      'follow',
    );
    await admin.replace(OC, { ...held, spec: { ...held.spec, conditions: [] } });
    await waitForCsv(admin, 'follow', 'pgpilot.v1.5.0');
    await waitFor('the old CSV gone', async () =>
      (await get<OperatorDetails>(details, '/x', { namespace: 'follow', name: 'pgpilot.v1.4.0' })).status === 404
        ? true
        : undefined,
    );
  });
});
