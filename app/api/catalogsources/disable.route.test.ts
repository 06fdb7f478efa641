// Disabling and enabling a catalog of the global namespace through the console's routes, on the
// upstream sandbox (OLM has no switch there): the CatalogSource goes with its packages and its
// Subscriptions report CatalogSourcesUnhealthy, the definition is in a ConfigMap anyone can read,
// and Enable makes the same CatalogSource again. A failed delete leaves nothing recorded. A record
// written into the ConfigMap by someone who may write it, or a recorded one changed, is reported
// and never made, whoever it says disabled the catalog. Checked with the Kubernetes API.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { CatalogSourcePlan, CatalogSourcesResponse } from '@/lib/api/catalog-sources';
import type { KubeClient } from '@/lib/k8s/client';
import { isKubeError } from '@/lib/k8s/errors';
import { retryPolicy } from '@/lib/k8s/retry';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '@/lib/olm/resources/catalog-source';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { CONFIG_MAP_TYPE, rbacType } from '@/lib/k8s/core-kinds';
import { clientAs, subscribe, waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody } from '@/lib/server/testing/route-sandbox';

type Params = { params: Promise<{ namespace: string; name: string }> };
type Handler = (req: Request, ctx: Params) => Promise<Response>;
const DEMO = 'olm-console-demo';

describe('catalog sources: disable and enable where OLM has no switch', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let kube: KubeClient;
  let GET: (req: Request) => Promise<Response>,
    PLAN: (req: Request) => Promise<Response>,
    DISABLE: Handler,
    ENABLE: Handler;

  before(async () => {
    kube = sb.admin;
    ({ GET } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    ({ POST: DISABLE } = await import('./[namespace]/[name]/disable/route'));
    ({ POST: ENABLE } = await import('./[namespace]/[name]/enable/route'));
  });

  const call = <T>(
    handler: Handler | ((req: Request) => Promise<Response>),
    path: string,
    body?: unknown,
    user = 'admin',
    params = { namespace: 'olm', name: DEMO },
    method = 'POST',
  ) => sb.call<T & ErrorBody>(handler, path, { method, user, body, params });
  const list = async (user = 'admin') =>
    (await call<CatalogSourcesResponse>(GET, '/api/catalogsources', undefined, user, undefined, 'GET')).body;

  test('disabling deletes the CatalogSource, records it, and its Subscriptions lose their catalog', async () => {
    await subscribe(kube, { namespace: 'operators', package: 'certwarden', channel: 'stable' });
    const before = await kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, DEMO, 'olm');
    const row = (await list()).catalogSources.find((c) => c.name === DEMO)!;
    assert.equal(row.canDisable.allowed, true);
    const plan = await call<CatalogSourcePlan>(PLAN, '/api/catalogsources/plan', {
      action: 'disable',
      namespace: 'olm',
      name: DEMO,
      seen: String(row.generation),
    });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.match(plan.body.warnings[0]!, /keeps its definition in ConfigMap olm\/olm-console-disabled-catalogs/);
    assert.deepEqual(
      plan.body.subscriptions.map((s) => `${s.namespace}/${s.name}`),
      ['operators/certwarden'],
    );
    // Bob may look, not disable: the cluster's reason.
    const bob = await call(DISABLE, '/api/catalogsources/olm/x/disable', { seen: String(row.generation) }, 'bob');
    assert.equal(bob.status, 403);
    const done = await call(DISABLE, `/api/catalogsources/olm/${DEMO}/disable`, { seen: String(row.generation) });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    await assert.rejects(kube.get(CATALOG_SOURCE_TYPE, DEMO, 'olm'), (e) => isKubeError(e, 404));
    const cm = await kube.get<{ data?: Record<string, string> }>(
      CONFIG_MAP_TYPE,
      'olm-console-disabled-catalogs',
      'olm',
    );
    assert.deepEqual(JSON.parse(cm.data![DEMO]!).catalogSource.spec, before.spec);
    // OLM's answer to a missing catalog, on the Subscription.
    await waitFor('CatalogSourcesUnhealthy', async () => {
      const sub = await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'certwarden', 'operators');
      return sub.status?.conditions?.find((c) => c.type === 'CatalogSourcesUnhealthy' && c.status === 'True')
        ? true
        : undefined;
    });
    const view = await list();
    assert.deepEqual(
      view.disabled.map((d) => [d.namespace, d.name, d.disabledBy]),
      [['olm', DEMO, 'admin']],
    );
  });

  test('enabling makes the same CatalogSource again and forgets the record', async () => {
    const plan = await call<CatalogSourcePlan>(PLAN, '/api/catalogsources/plan', {
      action: 'enable',
      namespace: 'olm',
      name: DEMO,
    });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    const done = await call(ENABLE, `/api/catalogsources/olm/${DEMO}/enable`, {});
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const back = await kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, DEMO, 'olm');
    assert.deepEqual(back.spec, plan.body.object?.spec);
    await waitFor('the catalog to serve again', async () =>
      (await kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, DEMO, 'olm')).status?.connectionState?.lastObservedState ===
      'READY'
        ? true
        : undefined,
    );
    const cm = await kube.get<{ data?: Record<string, string> }>(
      CONFIG_MAP_TYPE,
      'olm-console-disabled-catalogs',
      'olm',
    );
    assert.equal(cm.data?.[DEMO], undefined);
    assert.deepEqual((await list()).disabled, []);
    const again = await call(ENABLE, `/api/catalogsources/olm/${DEMO}/enable`, {});
    assert.equal(again.status, 404);
  });

  test('a delete the cluster refuses leaves nothing recorded', async () => {
    // Failing every attempt: a delete that fails fewer times is sent again (lib/k8s/retry.ts).
    assert.ok(
      sb.faults.apply({
        failDelete: { resource: 'catalogsources', namespace: 'olm', times: retryPolicy().maxAttempts },
      }).ok,
    );
    const row = (await list()).catalogSources.find((c) => c.name === DEMO)!;
    const failed = await call(DISABLE, `/api/catalogsources/olm/${DEMO}/disable`, { seen: String(row.generation) });
    assert.ok(failed.status >= 500, JSON.stringify(failed.body));
    assert.match(
      failed.body.error.message,
      /deleting CatalogSource olm\/olm-console-demo failed: .*; its record was taken back out/,
    );
    await kube.get(CATALOG_SOURCE_TYPE, DEMO, 'olm');
    const cm = await kube.get<{ data?: Record<string, string> }>(
      CONFIG_MAP_TYPE,
      'olm-console-disabled-catalogs',
      'olm',
    );
    assert.equal(cm.data?.[DEMO], undefined);
    assert.ok(sb.faults.apply({ failDelete: { resource: 'catalogsources', namespace: 'olm', times: 0 } }).ok);
  });

  test('only a global namespace’s catalogs are disabled here; a bad body names the field', async () => {
    const other = await call(PLAN, '/api/catalogsources/plan', {
      action: 'disable',
      namespace: 'team1',
      name: 'x',
      seen: '1',
    });
    assert.equal(other.status, 400);
    assert.match(other.body.error.message, /only a catalog of a global catalog namespace/);
    const bad = await call(DISABLE, `/api/catalogsources/olm/${DEMO}/disable`, { seen: 'latest' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /seen/);
  });

  test('a record written or changed by someone who may write the ConfigMap is reported and never made', async () => {
    const records = () =>
      kube.get<{ data?: Record<string, string> }>(CONFIG_MAP_TYPE, 'olm-console-disabled-catalogs', 'olm');
    // Alice may edit in olm: write ConfigMaps and delete CatalogSources there, but not create them.
    await kube.create(
      rbacType('RoleBinding'),
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'alice-edit', namespace: 'olm' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'edit' },
        subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
      },
      { namespace: 'olm' },
    );
    const alice = clientAs(sb.sandbox, 'alice');
    const writeAsAlice = async (key: string, value: string) => {
      const cm = await alice.get<{ metadata: object; data?: Record<string, string> }>(
        CONFIG_MAP_TYPE,
        'olm-console-disabled-catalogs',
        'olm',
      );
      await alice.replace(CONFIG_MAP_TYPE, { ...cm, data: { ...cm.data, [key]: value } });
    };

    // A catalog of her choosing, said to be disabled by the admin.
    const forged = JSON.stringify({
      disabledAt: '2026-11-28T08:00:00Z',
      disabledBy: 'admin',
      catalogSource: {
        apiVersion: 'operators.coreos.com/v1alpha1',
        kind: 'CatalogSource',
        metadata: { name: 'evil', namespace: 'olm' },
        spec: { sourceType: 'grpc', image: 'evil.example/catalog:latest', displayName: 'Community Operators' },
      },
    });
    await writeAsAlice('evil', forged);
    // And the admin's own record of the demo catalog, its image changed afterwards.
    const row = (await list()).catalogSources.find((c) => c.name === DEMO)!;
    const done = await call(DISABLE, `/api/catalogsources/olm/${DEMO}/disable`, { seen: String(row.generation) });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const sealed = (await records()).data![DEMO]!;
    const changed = JSON.parse(sealed) as { catalogSource: { spec: Record<string, unknown> } };
    changed.catalogSource.spec.image = 'evil.example/catalog:latest';
    await writeAsAlice(DEMO, JSON.stringify(changed));

    const shown = await list();
    assert.deepEqual(shown.disabled, []);
    const problems = shown.disabledProblems.join('\n');
    assert.match(
      problems,
      /entry evil of ConfigMap olm\/olm-console-disabled-catalogs carries no seal of this console/,
    );
    assert.match(
      problems,
      new RegExp(`entry ${DEMO} of ConfigMap olm/olm-console-disabled-catalogs has a seal that does not match it`),
    );
    for (const name of ['evil', DEMO]) {
      const plan = await call(PLAN, '/api/catalogsources/plan', { action: 'enable', namespace: 'olm', name });
      assert.equal(plan.status, 409, JSON.stringify(plan.body));
      const enable = await call(ENABLE, `/api/catalogsources/olm/${name}/enable`, {}, 'admin', {
        namespace: 'olm',
        name,
      });
      assert.equal(enable.status, 409, JSON.stringify(enable.body));
      assert.match(enable.body.error.message, /Enable will not make a CatalogSource from it/);
      await assert.rejects(kube.get(CATALOG_SOURCE_TYPE, name, 'olm'), (e) => isKubeError(e, 404));
    }
    const after = (await records()).data!;
    assert.equal(after.evil, forged);
    assert.deepEqual(JSON.parse(after[DEMO]!), changed);

    // The record as the console sealed it is made again, by someone who may create CatalogSources.
    await writeAsAlice(DEMO, sealed);
    const byAlice = await call(ENABLE, `/api/catalogsources/olm/${DEMO}/enable`, {}, 'alice');
    assert.equal(byAlice.status, 403, JSON.stringify(byAlice.body));
    await assert.rejects(kube.get(CATALOG_SOURCE_TYPE, DEMO, 'olm'), (e) => isKubeError(e, 404));
    const enabled = await call(ENABLE, `/api/catalogsources/olm/${DEMO}/enable`, {});
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body));
    assert.equal(
      (await kube.get<CatalogSource>(CATALOG_SOURCE_TYPE, DEMO, 'olm')).spec.image,
      JSON.parse(sealed).catalogSource.spec.image,
    );
  });
});
