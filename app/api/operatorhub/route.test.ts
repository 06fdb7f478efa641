// The default sources through the routes, against the sandbox's OpenShift flavour (two catalogs
// named as OpenShift's defaults, an operator installed from one): each source's switch with the
// marketplace operator's report, the plan (what goes, which Subscriptions then report
// CatalogSourcesUnhealthy) with nothing written, a switch off and on again as the admin with the
// CatalogSource gone and back, a stale resourceVersion refused, who may switch (admin; not
// alice or bob, with the reason), and bad bodies.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { isKubeError } from '@/lib/k8s/errors';
import type { OperatorHubApplied, OperatorHubPlan, OperatorHubView } from '@/lib/api/operator-hub';
import { OPERATOR_HUB_TYPE, type OperatorHub } from '@/lib/olm/catalog/operator-hub-config';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '@/lib/olm/resources/catalog-source';
import { OPERATOR_GROUP_TYPE } from '@/lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { writeFixtureCatalog } from '@/lib/sandbox/testing/fbc-fixture';
import { ensureNamespace, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody } from '@/lib/server/testing/route-sandbox';

const NS = 'openshift-marketplace';

describe('/api/operatorhub on OpenShift', () => {
  const root = mkdtempSync(join(tmpdir(), 'olm-operatorhub-route-'));
  writeFixtureCatalog(join(root, 'redhat-operators'), [{ name: 'red', bundles: [{ version: '1.0.0' }] }]);
  writeFixtureCatalog(join(root, 'community-operators'), [{ name: 'comm', bundles: [{ version: '1.0.0' }] }]);
  const sb = routeSandbox({
    flavor: 'openshift',
    deploymentDelayMs: 0,
    catalogs: [join(root, 'redhat-operators'), join(root, 'community-operators')],
  });
  let GET: (req: Request) => Promise<Response>;
  let PATCH: (req: Request) => Promise<Response>;
  let PLAN: (req: Request) => Promise<Response>;
  let admin: KubeClient;

  const source = async (name: string) => {
    try {
      return await admin.get<CatalogSource>(CATALOG_SOURCE_TYPE, name, NS);
    } catch (err) {
      if (isKubeError(err, 404)) return undefined;
      throw err;
    }
  };

  before(async () => {
    ({ GET, PATCH } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    admin = sb.admin;
    await ensureNamespace(admin, 'red');
    await admin.create(
      OPERATOR_GROUP_TYPE,
      { metadata: { name: 'red', namespace: 'red' }, spec: { targetNamespaces: ['red'] } },
      { namespace: 'red' },
    );
    await admin.create<Subscription>(
      SUBSCRIPTION_TYPE,
      {
        metadata: { name: 'red', namespace: 'red' },
        spec: { name: 'red', source: 'redhat-operators', sourceNamespace: NS, channel: 'stable' },
      },
      { namespace: 'red' },
    );
    await waitForCsv(admin, 'red', 'red.v1.0.0');
    await waitFor('status written', async () =>
      (await admin.get<OperatorHub>(OPERATOR_HUB_TYPE, 'cluster')).status?.sources?.length === 2 ? true : undefined,
    );
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const get = (user = 'admin') => sb.call<OperatorHubView & ErrorBody>(GET, '/api/operatorhub', { user });
  const send = <T>(
    handler: (req: Request) => Promise<Response>,
    body: unknown,
    user = 'admin',
    opts: { csrf?: null } = {},
  ) => {
    const plan = handler === PLAN;
    return sb.call<T & ErrorBody>(handler, plan ? '/api/operatorhub/plan' : '/api/operatorhub', {
      method: plan ? 'POST' : 'PATCH',
      user,
      body,
      ...opts,
    });
  };

  test('GET: each default source, what the marketplace operator reported, its CatalogSource and Subscriptions', async () => {
    const { status, body } = await get();
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.api, 'served');
    assert.equal(body.state, 'present');
    assert.equal(body.disableAllDefaultSources, false);
    assert.deepEqual(
      body.sources.map((s) => [s.name, s.disabled, s.reported?.status, s.catalogSource?.managed]),
      [
        ['community-operators', false, 'Success', true],
        ['redhat-operators', false, 'Success', true],
      ],
    );
    assert.deepEqual(body.sources.find((s) => s.name === 'redhat-operators')?.subscriptions, [
      { namespace: 'red', name: 'red', package: 'red' },
    ]);
    assert.deepEqual(body.canChange, { allowed: true });
  });

  test("alice and bob may not switch, and are told why; bob's write is refused by the cluster", async () => {
    for (const user of ['alice', 'bob']) {
      const { status, body } = await get(user);
      assert.equal(status, 200);
      assert.equal(body.canChange.allowed, false);
      assert.match(body.canChange.reason ?? '', /^you may not update operatorhubs$/);
      assert.equal(body.state, 'forbidden', JSON.stringify(body));
      assert.match(body.message ?? '', new RegExp(`User "${user}" cannot get resource "operatorhubs"`));
    }
    const rv = (await admin.get<OperatorHub>(OPERATOR_HUB_TYPE, 'cluster')).metadata?.resourceVersion;
    const denied = await send(PATCH, { change: { kind: 'all', disabled: true }, seen: rv }, 'bob');
    assert.equal(denied.status, 403, JSON.stringify(denied.body));
    assert.equal(denied.body.error.reason, 'Forbidden');
    assert.equal(
      (await admin.get<OperatorHub>(OPERATOR_HUB_TYPE, 'cluster')).spec?.disableAllDefaultSources,
      undefined,
    );
  });

  test('plan: the exact change, the CatalogSource that goes and the operator that will report CatalogSourcesUnhealthy; nothing written', async () => {
    const before = await admin.get<OperatorHub>(OPERATOR_HUB_TYPE, 'cluster');
    const { status, body } = await send<OperatorHubPlan>(PLAN, {
      change: { kind: 'source', name: 'redhat-operators', disabled: true },
    });
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.patch, { spec: { sources: [{ name: 'redhat-operators', disabled: true }] } });
    assert.equal(body.resourceVersion, before.metadata?.resourceVersion);
    assert.deepEqual(
      body.effects.map((e) => [e.name, e.catalogSource, e.subscriptions.length]),
      [['redhat-operators', 'deleted', 1]],
    );
    assert.match(
      body.effects[0]!.text,
      /deletes CatalogSource openshift-marketplace\/redhat-operators.*1 installed operator subscribes to it and will report CatalogSourcesUnhealthy/,
    );
    assert.equal(
      (await admin.get<OperatorHub>(OPERATOR_HUB_TYPE, 'cluster')).metadata?.resourceVersion,
      before.metadata?.resourceVersion,
    );
    const all = await send<OperatorHubPlan>(PLAN, { change: { kind: 'all', disabled: true } });
    assert.deepEqual(
      all.body.effects.map((e) => e.name),
      ['community-operators', 'redhat-operators'],
    );
  });

  test('off, then on again: the CatalogSource goes (the Subscription reports it) and comes back; a stale resourceVersion is a 409', async () => {
    const seen = (await get()).body.resourceVersion;
    const off = await send<OperatorHubApplied>(PATCH, {
      change: { kind: 'source', name: 'redhat-operators', disabled: true },
      seen,
    });
    assert.equal(off.status, 200, JSON.stringify(off.body));
    await waitFor('redhat-operators deleted', async () => ((await source('redhat-operators')) ? undefined : true));
    await waitFor('the Subscription reports CatalogSourcesUnhealthy', async () => {
      const sub = await admin.get<Subscription>(SUBSCRIPTION_TYPE, 'red', 'red');
      return sub.status?.conditions?.some((c) => c.type === 'CatalogSourcesUnhealthy' && c.status === 'True')
        ? true
        : undefined;
    });
    const now = await waitFor('reported disabled', async () => {
      const v = (await get()).body;
      return v.sources.find((s) => s.name === 'redhat-operators')?.reported?.disabled === true ? v : undefined;
    });
    const row = now.sources.find((s) => s.name === 'redhat-operators')!;
    assert.deepEqual(
      [row.disabled, row.decidedBy, row.catalogSource, row.pending],
      [true, 'source entry', undefined, false],
    );

    const stale = await send(PATCH, { change: { kind: 'source', name: 'redhat-operators', disabled: false }, seen });
    assert.equal(stale.status, 409);
    assert.match(stale.body.error.message, /was changed since you loaded it.*look at the default sources again/);

    const on = await send<OperatorHubApplied>(PATCH, {
      change: { kind: 'source', name: 'redhat-operators', disabled: false },
      seen: now.resourceVersion,
    });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    await waitFor('redhat-operators READY again', async () =>
      (await source('redhat-operators'))?.status?.connectionState?.lastObservedState === 'READY' ? true : undefined,
    );
  });

  test("deleting a managed default from the catalog list is planned with the marketplace operator's answer: it comes back", async () => {
    const { POST } = await import('../catalogsources/plan/route');
    const cs = (await source('community-operators'))!;
    const res = await POST(
      sb.request('/api/catalogsources/plan', {
        method: 'POST',
        body: { action: 'delete', namespace: NS, name: 'community-operators', seen: String(cs.metadata?.generation) },
      }),
    );
    const plan = (await res.json()) as { warnings: string[] };
    assert.equal(res.status, 200, JSON.stringify(plan));
    assert.match(
      plan.warnings[0] ?? '',
      /marketplace operator manages community-operators.*creates the CatalogSource again.*disable community-operators under Default sources/,
    );
  });

  test('bad bodies are 400s naming the field; a name that is no default source is refused; a write without the CSRF token is refused', async () => {
    const seen = (await get()).body.resourceVersion;
    const bad = async (body: unknown, field: RegExp) => {
      const r = await send(PATCH, body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.match(r.body.error.message, field);
    };
    await bad({ change: { kind: 'all', disabled: 'yes' }, seen }, /^change\.disabled: must be true/);
    await bad({ change: { kind: 'all', disabled: true } }, /^seen: the resourceVersion/);
    await bad({ change: { kind: 'everything', disabled: true }, seen }, /kind must be "all"/);
    await bad({ change: { kind: 'source', name: '', disabled: true }, seen }, /change\.name: must not be empty/);
    await bad({ change: { kind: 'all', disabled: true }, seen, force: true }, /force/);
    await bad(
      { change: { kind: 'source', name: 'my-catalog', disabled: true }, seen },
      /my-catalog is not one of the default sources/,
    );
    const csrf = await send(PATCH, { change: { kind: 'all', disabled: true }, seen }, 'admin', { csrf: null });
    assert.equal(csrf.status, 403);
    assert.equal((await admin.get<OperatorHub>(OPERATOR_HUB_TYPE, 'cluster')).metadata?.resourceVersion, seen);
  });
});
