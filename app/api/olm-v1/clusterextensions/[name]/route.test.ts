// A ClusterExtension through the console, against the sandbox's operator-controller (v1.2.0's
// behaviour, checked against the real one by `npm run conformance`): created through the Kubernetes
// API as admin (the install wizard is its own page), it appears in Installed Operators beside the
// CSVs; its page says Installed with its objects healthy; the versions v1 may move to, previewed in
// v1's words (a downgrade refused under CatalogProvided, allowed under SelfCertified); an upgrade and
// a pin applied at the resourceVersion seen; a stale one a 409, a bad range a 400; a viewer sees it
// and is refused every change, which leaves it as it was; uninstall counting the instances its CRDs
// take with them, refused without the name typed, then deleting it; the account and rights made by
// hand here are not the console's install's, so they are named as not offered and left.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { ExtensionDetails, ExtensionUninstallPreview, VersionPlan } from '@/lib/api/olm-v1-extensions';
import type { ResourceType } from '@/lib/olm/resources/common';
import type { InstalledOperatorsResponse } from '@/lib/api/operators';
import { CRD_TYPE, rbacType, NAMESPACE_TYPE, SERVICE_ACCOUNT_TYPE } from '@/lib/k8s/core-kinds';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '@/lib/server/olm-v1/resources';

const NAME = 'pgpilot';
const PG_TYPE: ResourceType = {
  group: 'pgpilot.example.com',
  version: 'v1',
  plural: 'postgresclusters',
  namespaced: true,
  kind: 'PostgresCluster',
};
const NS = 'pgpilot-v1';

describe('a ClusterExtension through the console, as the person', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: Handler, PATCH: Handler, PLAN: Handler, LIST: Handler, PREVIEW: Handler, UNINSTALL: Handler;

  before(async () => {
    ({ GET } = (await import('./route')) as unknown as { GET: Handler });
    ({ PATCH } = (await import('./version/route')) as unknown as { PATCH: Handler });
    ({ POST: PLAN } = (await import('./version/plan/route')) as unknown as { POST: Handler });
    ({ GET: LIST } = (await import('../../../operators/route')) as unknown as { GET: Handler });
    ({ GET: PREVIEW, POST: UNINSTALL } = (await import('./uninstall/route')) as unknown as {
      GET: Handler;
      POST: Handler;
    });
    await sb.admin.create(NAMESPACE_TYPE, { metadata: { name: NS } });
    await sb.admin.create(SERVICE_ACCOUNT_TYPE, { metadata: { name: 'installer', namespace: NS } });
    await sb.admin.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: `${NS}-installer` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: NS }],
    });
    await sb.admin.create(CLUSTER_EXTENSION_TYPE, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterExtension',
      metadata: { name: NAME },
      spec: {
        namespace: NS,
        serviceAccount: { name: 'installer' },
        source: { sourceType: 'Catalog', catalog: { packageName: 'pgpilot', version: '1.2.0', channels: ['stable'] } },
      },
    });
  });

  const details = (user = 'admin') =>
    sb.call<ExtensionDetails & ErrorBody>(GET, `/api/olm-v1/clusterextensions/${NAME}`, {
      user,
      params: { name: NAME },
    });
  const installedAt = (version: string) =>
    waitFor(
      `${NAME} installed at ${version} with its objects healthy`,
      async () => {
        const { body } = await details();
        return body.installed?.version === version &&
          body.status.label === 'Installed' &&
          body.verdict.state === 'Healthy'
          ? body
          : undefined;
      },
      30_000,
    );
  const plan = (body: unknown, user = 'admin') =>
    sb.call<VersionPlan & ErrorBody>(PLAN, `/api/olm-v1/clusterextensions/${NAME}/version/plan`, {
      method: 'POST',
      user,
      body,
      params: { name: NAME },
    });
  const change = (body: unknown, user = 'admin') =>
    sb.call<ErrorBody & { resourceVersion: string }>(PATCH, `/api/olm-v1/clusterextensions/${NAME}/version`, {
      method: 'PATCH',
      user,
      body,
      params: { name: NAME },
    });
  const stored = () => sb.admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, NAME);

  test('Installed, in v1’s words, with the Deployment rolled out and the CRDs Established', async () => {
    const d = await installedAt('1.2.0');
    assert.deepEqual(d.installed, { name: 'pgpilot.v1.2.0', version: '1.2.0' });
    assert.match(d.status.detail, /^pgpilot\.v1\.2\.0 \(1\.2\.0\) is installed: Installed bundle \S+ successfully$/);
    assert.equal(d.conditions.find((c) => c.type === 'Progressing')?.message, 'desired state reached');
    assert.deepEqual(d.spec, {
      namespace: NS,
      serviceAccount: 'installer',
      package: 'pgpilot',
      version: '1.2.0',
      channels: ['stable'],
      policy: 'CatalogProvided',
    });
    const dep = d.objects.find((o) => o.kind === 'Deployment');
    assert.equal(dep?.namespace, NS);
    assert.equal(dep?.health, 'healthy');
    const crds = d.objects.filter((o) => o.kind === 'CustomResourceDefinition');
    assert.ok(crds.some((c) => c.name === 'postgresclusters.pgpilot.example.com'));
    assert.ok(crds.every((c) => c.health === 'healthy' && c.detail.startsWith('Established')));
    assert.deepEqual(d.unread, []);
    assert.equal(d.canUpdate.allowed, true);
  });

  test('Installed Operators lists it as OLM v1 beside the CSVs, in its namespace and cluster-wide', async () => {
    for (const q of [`?namespace=${NS}`, '']) {
      const { status, body } = await sb.call<InstalledOperatorsResponse>(LIST, `/api/operators${q}`);
      assert.equal(status, 200);
      const row = body.extensions?.find((e) => e.name === NAME);
      assert.equal(row?.package, 'pgpilot');
      assert.equal(row?.namespace, NS);
      assert.equal(row?.version, '1.2.0');
      assert.equal(row?.status.label, 'Installed');
    }
    const other = await sb.call<InstalledOperatorsResponse>(LIST, '/api/operators?namespace=default');
    assert.deepEqual(other.body.extensions, [], 'an extension belongs to its spec.namespace');
    // Someone who may not list ClusterExtensions gets the v0 list as before: no rows, no error.
    const bob = await sb.call<InstalledOperatorsResponse>(LIST, '/api/operators?namespace=default', { user: 'bob' });
    assert.equal(bob.status, 200);
    assert.equal(bob.body.extensions, undefined);
  });

  test('the versions v1 may move to: one hop by replaces or skipRange, older ones refused', async () => {
    const d = await installedAt('1.2.0');
    assert.ok(Array.isArray(d.versions));
    const reach = Object.fromEntries(d.versions.map((v) => [v.version, v.reach.kind]));
    // stable: 1.3.0 replaces 1.2.0; 1.4.0's skipRange >=1.0.0 <1.4.0 holds 1.2.0; 1.5.0 is only in fast.
    assert.deepEqual(reach, {
      '1.4.0': 'next',
      '1.3.0': 'next',
      '1.2.0': 'installed',
      '1.1.0': 'refused',
      '1.0.0': 'refused',
    });
  });

  test('a preview resolves as v1 would: a downgrade refused in its words, allowed when SelfCertified', async () => {
    const up = await plan({ version: '>=1.2.0 <1.4.0' });
    assert.equal(up.status, 200);
    assert.deepEqual(up.body.resolved, { bundle: 'pgpilot.v1.3.0', version: '1.3.0', catalog: 'olm-console-demo' });
    assert.equal(up.body.change, 'upgrade');
    const down = await plan({ version: '1.0.0' });
    assert.equal(
      down.body.error,
      'error upgrading from currently installed version "1.2.0": no bundles found for package "pgpilot" matching version "1.0.0" in channels [stable]',
    );
    const self = await plan({ version: '1.0.0', upgradeConstraintPolicy: 'SelfCertified' });
    assert.equal(self.body.resolved?.version, '1.0.0');
    assert.equal(self.body.change, 'downgrade');
  });

  test('a range v1 cannot read is a 400 in its words, and nothing is written', async () => {
    const before = await stored();
    const p = await plan({ version: '>=1.0 <<2' });
    assert.equal(p.status, 400);
    assert.match(p.body.error.message, /^desired version range ">=1\.0 <<2" is invalid: /);
    const c = await change({ version: '>=1.0 <<2', seen: before.metadata!.resourceVersion });
    assert.equal(c.status, 400);
    assert.equal((await stored()).metadata?.resourceVersion, before.metadata?.resourceVersion);
  });

  test('a viewer sees it and may not change it; the refusal changes nothing', async () => {
    await sb.admin.create(rbacType('ClusterRole'), {
      metadata: { name: 'extension-reader' },
      rules: [
        { apiGroups: ['olm.operatorframework.io'], resources: ['clusterextensions'], verbs: ['get', 'list', 'watch'] },
      ],
    });
    await sb.admin.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'bob-extension-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'extension-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    });
    const { body } = await waitFor('bob reading the extension', async () => {
      const r = await details('bob');
      return r.status === 200 ? r : undefined;
    });
    assert.equal(body.installed?.version, '1.2.0');
    assert.equal(body.canUpdate.allowed, false);
    assert.ok(body.canUpdate.reason);
    assert.equal(body.canDelete.allowed, false);
    const before = await stored();
    const r = await change({ version: '1.3.0', seen: before.metadata!.resourceVersion }, 'bob');
    assert.equal(r.status, 403);
    assert.equal(r.body.error.reason, 'Forbidden');
    assert.equal((await stored()).metadata?.resourceVersion, before.metadata?.resourceVersion);
  });

  test('upgrade to a version at the resourceVersion seen; a stale one is a 409; then pin', async () => {
    const before = await stored();
    const up = await change({ version: '1.3.0', seen: before.metadata!.resourceVersion });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    await installedAt('1.3.0');
    const stale = await change({ version: '1.4.0', seen: before.metadata!.resourceVersion });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error.reason, 'Conflict');
    assert.equal((await stored()).spec?.source?.catalog?.version, '1.3.0');
    const range = await change({ version: '>=1.3.0', seen: (await stored()).metadata!.resourceVersion });
    assert.equal(range.status, 200);
    await installedAt('1.4.0');
    const pin = await change({ version: '1.4.0', seen: (await stored()).metadata!.resourceVersion });
    assert.equal(pin.status, 200);
    const d = await installedAt('1.4.0');
    assert.equal(d.spec.version, '1.4.0');
  });

  test('uninstall: the CRDs’ instances counted, the name typed, then gone; hand-made access kept', async () => {
    await sb.admin.create(PG_TYPE, { metadata: { name: 'db1', namespace: 'default' }, spec: {} });
    await sb.admin.create(PG_TYPE, { metadata: { name: 'db2', namespace: NS }, spec: {} });
    const path = `/api/olm-v1/clusterextensions/${NAME}/uninstall`;
    const preview = await sb.call<ExtensionUninstallPreview & ErrorBody>(PREVIEW, path, { params: { name: NAME } });
    assert.equal(preview.status, 200);
    const pg = preview.body.crds.find((c) => c.name === 'postgresclusters.pgpilot.example.com');
    assert.equal(pg?.instances, 2);
    // The account and its binding were made by hand, not by the console's install: nothing is offered.
    assert.deepEqual(preview.body.access, []);
    assert.deepEqual(
      preview.body.notOffered.map((n) => [n.kind, n.name]),
      [['ServiceAccount', 'installer']],
    );
    assert.equal(preview.body.canDelete.allowed, true);
    const asBob = await sb.call<ExtensionUninstallPreview>(PREVIEW, path, { user: 'bob', params: { name: NAME } });
    assert.equal(asBob.body.canDelete.allowed, false);
    const seen = preview.body.generation;
    const post = (body: unknown, user = 'admin') =>
      sb.call<ErrorBody & { access: { kind: string; outcome: string }[] }>(UNINSTALL, path, {
        method: 'POST',
        user,
        body,
        params: { name: NAME },
      });
    const refused = await post({ seen, confirm: NAME }, 'bob');
    assert.equal(refused.status, 403);
    const stale = await post({ seen: seen - 1, confirm: NAME });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.error.reason, 'Conflict');
    const untyped = await post({ seen, confirm: 'pg' });
    assert.equal(untyped.status, 400);
    assert.match(untyped.body.error.message, /confirm by typing its name, "pgpilot"/);
    const stray = await post({
      seen,
      confirm: NAME,
      alsoDelete: [{ kind: 'ServiceAccount', name: 'default', namespace: NS }],
    });
    assert.equal(stray.status, 400);
    const account = await post({
      seen,
      confirm: NAME,
      alsoDelete: [{ kind: 'ServiceAccount', name: 'installer', namespace: NS }],
    });
    assert.equal(account.status, 400);
    assert.match(account.body.error.message, /carries no mark of this console's install of pgpilot/);
    assert.equal((await stored()).metadata?.deletionTimestamp, undefined, 'nothing was deleted');
    const done = await post({ seen, confirm: NAME });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(done.body.access, []);
    await waitFor('the extension gone', async () => {
      const r = await details();
      return r.status === 404 ? r : undefined;
    });
    sb.sandbox.api.sweep();
    await waitFor('its CRD gone with its instances', async () => {
      try {
        await sb.admin.get(CRD_TYPE, 'postgresclusters.pgpilot.example.com');
        sb.sandbox.api.sweep();
        return undefined;
      } catch {
        return true;
      }
    });
    await sb.admin.get(rbacType('ClusterRoleBinding'), `${NS}-installer`);
    await sb.admin.get(SERVICE_ACCOUNT_TYPE, 'installer', NS);
  });
});
