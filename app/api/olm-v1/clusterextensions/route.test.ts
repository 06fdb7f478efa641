// Installing a package as a ClusterExtension through the console, against the sandbox's
// operator-controller (v1.2.0's behaviour): the dry run shows the objects, the version v1 resolves
// to and v1's words for a bundle it cannot install, and writes nothing; the install creates the
// namespace, account, rights and extension, and v1 installs the bundle with exactly those rights;
// a viewer is refused with the reason and nothing written; bad input is a 4xx naming the field or
// the API server's rule; a failed write removes what the request had created.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { V1InstallAnswer, V1InstallRequestBody, V1PlanAnswer } from '@/lib/api/olm-v1-install';
import { DEPLOYMENT_TYPE, NAMESPACE_TYPE, SERVICE_ACCOUNT_TYPE, rbacType } from '@/lib/k8s/core-kinds';
import { isKubeError } from '@/lib/k8s/errors';
import { retryPolicy } from '@/lib/k8s/retry';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '@/lib/server/olm-v1/resources';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const DEMO = 'olm-console-demo';

describe('installing a package as a ClusterExtension, as the person', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let PLAN: Handler, APPLY: Handler;
  before(async () => {
    ({ POST: APPLY } = (await import('./route')) as unknown as { POST: Handler });
    ({ POST: PLAN } = (await import('./plan/route')) as unknown as { POST: Handler });
  });

  const body = (over: Partial<V1InstallRequestBody> = {}): V1InstallRequestBody => ({
    catalog: DEMO,
    packageName: 'pgpilot',
    name: 'pgpilot',
    namespace: 'pgpilot-v1',
    serviceAccount: { name: 'pgpilot-installer', grant: true },
    version: '~1.4',
    channels: [],
    onlyThisCatalog: false,
    upgradeConstraintPolicy: 'CatalogProvided',
    ...over,
  });
  const plan = (b: unknown, user = 'admin') =>
    sb.call<V1PlanAnswer & ErrorBody>(PLAN, '/api/olm-v1/clusterextensions/plan', { method: 'POST', body: b, user });
  const apply = (b: unknown, user = 'admin') =>
    sb.call<V1InstallAnswer & ErrorBody>(APPLY, '/api/olm-v1/clusterextensions', { method: 'POST', body: b, user });
  const absent = async (p: Promise<unknown>) => assert.rejects(p, (e) => isKubeError(e, 404));

  test('the dry run shows every object, the version v1 resolves to, and writes nothing', async () => {
    const p = await waitFor('the catalog served', async () => {
      const r = await plan(body());
      return r.status === 200 ? r : undefined;
    });
    assert.deepEqual(p.body.plan.resolution, { bundle: 'pgpilot.v1.4.0', version: '1.4.0', catalog: DEMO });
    assert.deepEqual(
      p.body.plan.objects.map((o) => [o.action, o.kind, o.name]),
      [
        ['create', 'Namespace', 'pgpilot-v1'],
        ['create', 'ServiceAccount', 'pgpilot-installer'],
        ['create', 'ClusterRole', 'pgpilot-installer'],
        ['create', 'ClusterRoleBinding', 'pgpilot-installer'],
        ['create', 'Role', 'pgpilot-installer'],
        ['create', 'RoleBinding', 'pgpilot-installer'],
        ['create', 'ClusterExtension', 'pgpilot'],
      ],
    );
    const ce = p.body.plan.objects.at(-1)!.object as ClusterExtension;
    assert.deepEqual(ce.spec?.source?.catalog, {
      packageName: 'pgpilot',
      version: '~1.4',
      upgradeConstraintPolicy: 'CatalogProvided',
    });
    assert.deepEqual(p.body.plan.blockers, []);
    assert.equal(p.body.package.versions[0], '2.0.0-rc.1');
    assert.ok(p.body.package.channels.some((c) => c.name === 'stable' && c.versions.includes('1.4.0')));
    await absent(sb.admin.get(NAMESPACE_TYPE, 'pgpilot-v1'));
    await absent(sb.admin.get(CLUSTER_EXTENSION_TYPE, 'pgpilot'));
  });

  test('a range v1 cannot match and a bundle v1.2.0 refuses are said in v1’s words', async () => {
    const none = await plan(body({ version: '>=9.0.0' }));
    assert.deepEqual(none.body.plan.resolution, {
      error: 'no bundles found for package "pgpilot" matching version ">=9.0.0"',
    });
    assert.ok(none.body.plan.warnings.some((w) => w.code === 'unresolved'));
    // quillmq needs another package: v1.2.0 resolves no dependencies.
    const dep = await plan(body({ packageName: 'quillmq', name: 'quillmq', version: undefined }));
    assert.deepEqual(dep.body.plan.resolution, {
      error:
        'validating bundle "quillmq.v3.1.0": bundle "quillmq.v3.1.0" has a dependency declared via property "olm.package.required" which is currently not supported',
    });
    // backstop 2.0.0 drops AllNamespaces; v1.2.0 installs for all namespaces only.
    const own = await plan(body({ packageName: 'backstop', name: 'backstop', version: '2.0.0' }));
    const unsupported = own.body.plan.warnings.find((w) => w.code === 'unsupported');
    assert.match(
      unsupported?.message ?? '',
      /cannot install this bundle: supported install modes \[MultiNamespace OwnNamespace SingleNamespace\] do not support targeting all namespaces for resolved bundle "backstop\.v2\.0\.0" with version "2\.0\.0"$/,
    );
  });

  test('bad input is a 4xx naming the field or the API server’s rule, and changes nothing', async () => {
    const long = await plan(body({ name: 'x'.repeat(54) }));
    assert.equal(long.status, 400);
    assert.match(long.body.error.message, /name: must be at most 53 characters/);
    const policy = await plan({ ...body(), upgradeConstraintPolicy: 'Whatever' });
    assert.equal(policy.status, 400);
    assert.match(policy.body.error.message, /upgradeConstraintPolicy: must be CatalogProvided or SelfCertified/);
    const extra = await plan({ ...body(), surprise: true });
    assert.equal(extra.status, 400);
    // The CRD's own rule on the version field, from the API server's dry run.
    const range = await apply(body({ version: '1.2 - 1.4' }));
    assert.equal(range.status, 422);
    assert.match(range.body.error.message, /invalid version expression/);
    const missing = await plan(body({ packageName: 'no-such-package', name: 'nothing' }));
    assert.equal(missing.status, 404);
    assert.match(missing.body.error.message, /ClusterCatalog olm-console-demo has no package no-such-package/);
    await absent(sb.admin.get(NAMESPACE_TYPE, 'pgpilot-v1'));
  });

  test('a viewer is refused before anything is written, with the cluster’s reason', async () => {
    const p = await plan(body(), 'bob');
    // bob may not list ClusterCatalogs in the sandbox: the API server's refusal, kept.
    if (p.status === 403) {
      assert.equal(p.body.error.reason, 'Forbidden');
    } else {
      assert.ok(p.body.plan.blockers.some((b) => b.code === 'forbidden'));
    }
    const a = await apply(body(), 'bob');
    assert.equal(a.status, 403);
    await absent(sb.admin.get(NAMESPACE_TYPE, 'pgpilot-v1'));
  });

  test('rights an earlier install of the same name left behind block granting them again', async () => {
    await sb.admin.create(rbacType('ClusterRole'), { metadata: { name: 'leftover-installer' }, rules: [] });
    const p = await plan(body({ name: 'leftover', namespace: 'leftover-ns' }));
    assert.match(
      p.body.plan.blockers.find((b) => b.code === 'exists')?.message ?? '',
      /^ClusterRole leftover-installer already exists \(left by an earlier install of leftover\?\)/,
    );
    const a = await apply(body({ name: 'leftover', namespace: 'leftover-ns' }));
    assert.equal(a.status, 409);
    await absent(sb.admin.get(NAMESPACE_TYPE, 'leftover-ns'));
  });

  test('a failed write removes what the install had created', async () => {
    assert.ok(
      sb.faults.apply({
        failCreate: { resource: 'rolebindings', namespace: 'rollback-v1', times: retryPolicy().maxAttempts },
      }).ok,
    );
    const a = await apply(body({ namespace: 'rollback-v1', name: 'rolled' }));
    assert.equal(a.status, 500);
    assert.match(a.body.error.message, /creating RoleBinding rollback-v1\/rolled-installer failed: /);
    assert.match(
      a.body.error.message,
      /removed what this install had created \(Role rollback-v1\/rolled-installer, ClusterRoleBinding rolled-installer, ClusterRole rolled-installer, ServiceAccount rollback-v1\/pgpilot-installer, Namespace rollback-v1\)/,
    );
    await absent(sb.admin.get(rbacType('ClusterRole'), 'rolled-installer'));
    await absent(sb.admin.get(CLUSTER_EXTENSION_TYPE, 'rolled'));
  });

  test('the install creates everything in order, and v1 installs the bundle with exactly those rights', async () => {
    const a = await apply(body());
    assert.equal(a.status, 201, JSON.stringify(a.body));
    assert.deepEqual(
      a.body.created.map((c) => c.kind),
      ['Namespace', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding', 'ClusterExtension'],
    );
    const ce = await waitFor('Installed', async () => {
      const c = await sb.admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'pgpilot');
      return c.status?.conditions?.some((x) => x.type === 'Installed' && x.status === 'True') ? c : undefined;
    });
    assert.deepEqual(ce.status?.install?.bundle, { name: 'pgpilot.v1.4.0', version: '1.4.0' });
    await sb.admin.get(SERVICE_ACCOUNT_TYPE, 'pgpilot-installer', 'pgpilot-v1');
    await sb.admin.get(DEPLOYMENT_TYPE, 'pgpilot-controller-manager', 'pgpilot-v1');
    // Planned again, the name is taken and the plan follows the extension v1 installed.
    const again = await plan(body());
    assert.ok(again.body.plan.blockers.some((b) => b.code === 'exists'));
    assert.ok(again.body.plan.existing?.conditions.some((c) => c.type === 'Installed' && c.status === 'True'));
    const refused = await apply(body());
    assert.equal(refused.status, 409);
  });
});
