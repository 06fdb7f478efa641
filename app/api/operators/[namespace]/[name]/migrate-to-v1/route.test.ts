// Moving an operator from OLM v0 to OLM v1 through the routes, against the sandbox (OLM v0 and v1
// side by side, the demo catalog both a CatalogSource and the ClusterCatalog olm-console-demo):
// an AllNamespaces operator with a live instance gets a plan; a viewer sees the plan but every
// write is refused with the reason, and her attempt changes nothing; an operator watching one
// namespace cannot move and says why; applied, the ClusterExtension is Installed at the same
// version, the CRD and the instance are still there, and the operator's Deployment carries v1's
// owner label.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { CRD_TYPE, DEPLOYMENT_TYPE, rbacType } from '@/lib/k8s/core-kinds';
import { isKubeError } from '@/lib/k8s/errors';
import { CSV_TYPE } from '@/lib/olm/resources/cluster-service-version';
import { SUBSCRIPTION_TYPE } from '@/lib/olm/resources/subscription';
import type { ExtensionUninstallPreview } from '@/lib/api/olm-v1-extensions';
import type { MigrationResult, MigrationView } from '@/lib/api/olm-v1-migration';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '@/lib/server/olm-v1/resources';
import { subscribe, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

const CACHE = {
  group: 'cachely.example.com',
  version: 'v1',
  plural: 'cacheclusters',
  namespaced: true,
  kind: 'CacheCluster',
};
const CSV = 'cachely.v0.9.2';

describe('/api/operators/<ns>/<csv>/migrate-to-v1', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let POST: Handler;
  let PLAN: Handler;
  let admin: KubeClient;
  before(async () => {
    ({ POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    admin = sb.admin;
    await subscribe(admin, { namespace: 'operators', package: 'cachely', channel: 'alpha' });
    await waitForCsv(admin, 'operators', CSV);
    await subscribe(admin, { namespace: 'team1', package: 'pgpilot', channel: 'stable', targets: ['team1'] });
    await waitForCsv(admin, 'team1', 'pgpilot.v1.4.0');
    await admin.create(
      CACHE,
      {
        apiVersion: 'cachely.example.com/v1',
        kind: 'CacheCluster',
        metadata: { name: 'sessions', namespace: 'team1' },
        spec: { replicas: 2 },
      },
      { namespace: 'team1' },
    );
  });

  const at = (ns: string, csv: string) => ({
    path: `/api/operators/${ns}/${csv}/migrate-to-v1`,
    params: { namespace: ns, name: csv },
  });
  const plan = (user = 'admin', ns = 'operators', csv = CSV) =>
    sb.call<MigrationView & { error?: { message: string } }>(PLAN, `${at(ns, csv).path}/plan`, {
      method: 'POST',
      user,
      body: {},
      params: at(ns, csv).params,
    });
  const apply = (user = 'admin') =>
    sb.call<MigrationResult & { error?: { message: string } }>(POST, at('operators', CSV).path, {
      method: 'POST',
      user,
      body: {},
      params: at('operators', CSV).params,
    });

  test('an AllNamespaces operator can move: the steps in order, pinned to its version', async () => {
    const { status, body } = await plan();
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.canMove, true, JSON.stringify(body.reasons));
    assert.equal(body.extension, 'cachely');
    assert.equal(body.version, '0.9.2');
    assert.equal(body.catalog, 'olm-console-demo');
    // The demo catalog carries each bundle's objects: nothing is pulled.
    assert.deepEqual(body.source, { from: 'catalog' });
    assert.deepEqual(
      body.steps!.map((s) => s.id),
      ['installer', 'delete-subscription', 'orphan-csv', 'adopt', 'create-extension', 'wait-installed', 'cleanup'],
    );
    const adopt = body.steps!.find((s) => s.id === 'adopt')!;
    assert.ok(
      adopt.writes.some((w) => w.kind === 'CustomResourceDefinition' && w.name === 'cacheclusters.cachely.example.com'),
    );
    assert.ok(adopt.writes.some((w) => w.kind === 'Deployment'));
    // What v1 takes over is what OLM v0 installed for the CSV; its own ClusterRoles are new.
    const fates = new Map(body.objects!.map((o) => [`${o.kind}/${o.name}`, o.fate]));
    assert.equal(fates.get('CustomResourceDefinition/cacheclusters.cachely.example.com'), 'adopt');
    assert.equal(fates.get('Deployment/cachely-controller-manager'), 'adopt');
    assert.equal(fates.get('ServiceAccount/cachely-controller'), 'adopt');
    assert.ok(
      body.objects!.some((o) => o.kind === 'ClusterRole' && o.fate === 'new'),
      JSON.stringify(body.objects),
    );
    assert.deepEqual(
      adopt.writes.map((w) => `${w.kind}/${w.name}`).sort(),
      body
        .objects!.filter((o) => o.fate === 'adopt')
        .map((o) => `${o.kind}/${o.name}`)
        .sort(),
    );
    const orphan = body.steps!.find((s) => s.id === 'orphan-csv')!;
    assert.deepEqual(orphan.writes, [
      { verb: 'delete', kind: 'ClusterServiceVersion', name: CSV, namespace: 'operators', propagationPolicy: 'Orphan' },
    ]);
    assert.equal(body.blocked, false);
  });

  test('an operator watching one namespace cannot move, and says why', async () => {
    const { status, body } = await plan('admin', 'team1', 'pgpilot.v1.4.0');
    assert.equal(status, 200);
    assert.equal(body.canMove, false);
    assert.ok(
      body.reasons.some((r) =>
        /watches team1; OLM v1\.2\.0 installs an operator only for all namespaces/.test(r.message),
      ),
      JSON.stringify(body.reasons),
    );
  });

  test('a viewer may not tell whether the OperatorCondition is in use: that is a reason', async () => {
    const { status, body } = await plan('bob');
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.canMove, false);
    assert.ok(
      body.reasons.some((r) => /whether its OperatorCondition is in use cannot be told: .*bob/.test(r.message)),
      JSON.stringify(body.reasons),
    );
  });

  test('a viewer who reads everything sees each write refused with the reason, and her move changes nothing', async () => {
    await admin.create(rbacType('ClusterRole'), {
      metadata: { name: 'read-olm' },
      rules: [
        { apiGroups: ['operators.coreos.com'], resources: ['operatorconditions'], verbs: ['get'] },
        {
          apiGroups: ['olm.operatorframework.io'],
          resources: ['clustercatalogs', 'clusterextensions'],
          verbs: ['get', 'list'],
        },
        { apiGroups: ['apiextensions.k8s.io'], resources: ['customresourcedefinitions'], verbs: ['get'] },
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles', 'clusterrolebindings'],
          verbs: ['get'],
        },
      ],
    });
    await admin.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'bob-reads-olm' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'read-olm' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    });
    const { status, body } = await plan('bob');
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.blocked, true, JSON.stringify(body));
    assert.match(body.steps!.find((s) => s.id === 'delete-subscription')!.denied!, /bob|forbidden|may not/i);
    const moved = await apply('bob');
    assert.equal(moved.status, 403);
    await admin.get(SUBSCRIPTION_TYPE, 'cachely', 'operators');
    await admin.get(CSV_TYPE, CSV, 'operators');
    const dep = await admin.get<{ metadata: { labels?: Record<string, string> } }>(
      DEPLOYMENT_TYPE,
      'cachely-controller-manager',
      'operators',
    );
    assert.equal(dep.metadata.labels?.['app.kubernetes.io/managed-by'], undefined);
    await assert.rejects(admin.get(CLUSTER_EXTENSION_TYPE, 'cachely'), (e) => isKubeError(e, 404));
  });

  test('moved: Installed at 0.9.2, the CRD and the instance kept, the Deployment now v1’s', async () => {
    const { status, body } = await apply();
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.ok, true, JSON.stringify(body));
    assert.ok(
      body.steps.every((s) => s.state === 'done'),
      JSON.stringify(body.steps),
    );
    const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'cachely');
    assert.equal(ce.status?.install?.bundle?.version, '0.9.2');
    assert.equal(ce.status?.conditions?.find((c) => c.type === 'Installed')?.status, 'True');
    await admin.get(CRD_TYPE, 'cacheclusters.cachely.example.com');
    const instance = await admin.get<{ spec: { replicas: number } }>(CACHE, 'sessions', 'team1');
    assert.equal(instance.spec.replicas, 2);
    const dep = await admin.get<{ metadata: { labels?: Record<string, string> } }>(
      DEPLOYMENT_TYPE,
      'cachely-controller-manager',
      'operators',
    );
    assert.equal(dep.metadata.labels?.['olm.operatorframework.io/owner-name'], 'cachely');
    await assert.rejects(admin.get(CSV_TYPE, CSV, 'operators'), (e) => isKubeError(e, 404));
    await assert.rejects(admin.get(SUBSCRIPTION_TYPE, 'cachely', 'operators'), (e) => isKubeError(e, 404));
  });

  test('the installer account and roles the move made are offered when the extension is uninstalled', async () => {
    // Runs after the move above: what it created for v1's installer carries the console's mark,
    // as the install wizard's does, so the uninstall preview offers it (and nothing else).
    const { GET: PREVIEW } = (await import('@/app/api/olm-v1/clusterextensions/[name]/uninstall/route')) as {
      GET: Handler;
    };
    const p = await sb.call<ExtensionUninstallPreview>(PREVIEW, '/api/olm-v1/clusterextensions/cachely/uninstall', {
      params: { name: 'cachely' },
    });
    assert.equal(p.status, 200, JSON.stringify(p.body));
    const offered = p.body.access.map((a) => `${a.kind}/${a.name}`).sort();
    assert.deepEqual(offered, [
      'ClusterRole/cachely-installer',
      'ClusterRoleBinding/cachely-installer',
      'Role/cachely-installer',
      'RoleBinding/cachely-installer',
      'ServiceAccount/cachely-installer',
    ]);
  });
});
