// What uninstalling a ClusterExtension offers to delete with it, against the sandbox with its seed
// users: only the ServiceAccount and `<name>-installer` roles and bindings the console's install
// made for this very extension (they carry its mark, with the extension's uid). Another team's
// account named in spec.serviceAccount, OLM v0's RBAC, a role feeding `view`, objects with no mark
// or a mark for another extension, and a binding that also grants others are never offered: the
// preview names them with the reason, and a request to delete one is a 400 that deletes nothing,
// the extension included. Whatever the preview offers, the request accepts.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { ExtensionUninstallPreview } from '@/lib/api/olm-v1-extensions';
import type { V1InstallAnswer, V1InstallRequestBody } from '@/lib/api/olm-v1-install';
import type { KubeClient } from '@/lib/k8s/client';
import { NAMESPACE_TYPE, rbacType, SERVICE_ACCOUNT_TYPE } from '@/lib/k8s/core-kinds';
import { isKubeError } from '@/lib/k8s/errors';
import type { KubeObject } from '@/lib/olm/resources/common';
import { accessReview } from '@/lib/server/permissions';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '@/lib/server/olm-v1/resources';
import { clientAs, subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const RBAC = 'rbac.authorization.k8s.io';
const MARK = 'olm-console.io/installed-for';
type Access = { kind: string; name: string; namespace?: string };
type Outcomes = { access: (Access & { outcome: string })[] };

describe('uninstalling a ClusterExtension offers only what the console’s install made for it', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let PREVIEW: Handler, UNINSTALL: Handler, INSTALL: Handler;
  let bob: KubeClient;
  before(async () => {
    ({ GET: PREVIEW, POST: UNINSTALL } = (await import('./route')) as unknown as { GET: Handler; POST: Handler });
    ({ POST: INSTALL } = (await import('../../route')) as unknown as { POST: Handler });
    bob = clientAs(sb, 'bob');
  });

  /** A ClusterExtension made through the API (a package no catalog has: v1 installs nothing). */
  const extension = async (name: string, namespace: string, serviceAccount: string) =>
    sb.admin.create<ClusterExtension>(CLUSTER_EXTENSION_TYPE, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterExtension',
      metadata: { name },
      spec: {
        namespace,
        serviceAccount: { name: serviceAccount },
        source: { sourceType: 'Catalog', catalog: { packageName: `no-such-package-${name}` } },
      },
    });
  const preview = (name: string, user = 'admin') =>
    sb.call<ExtensionUninstallPreview & ErrorBody>(PREVIEW, `/api/olm-v1/clusterextensions/${name}/uninstall`, {
      user,
      params: { name },
    });
  const uninstall = (name: string, seen: number, alsoDelete: Access[]) =>
    sb.call<Outcomes & ErrorBody>(UNINSTALL, `/api/olm-v1/clusterextensions/${name}/uninstall`, {
      method: 'POST',
      body: { seen, confirm: name, alsoDelete },
      params: { name },
    });
  const exists = async (kind: keyof typeof TYPES, name: string, namespace?: string) => {
    try {
      await sb.admin.get(TYPES[kind], name, namespace);
      return true;
    } catch (err) {
      if (isKubeError(err, 404)) return false;
      throw err;
    }
  };
  const extensionStays = async (name: string) =>
    assert.equal(
      (await sb.admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name)).metadata?.deletionTimestamp,
      undefined,
    );
  const binding = (
    kind: 'ClusterRoleBinding' | 'RoleBinding',
    meta: KubeObject['metadata'],
    role: string,
    subjects: unknown[],
  ) =>
    sb.admin.create(rbacType(kind), {
      metadata: meta,
      roleRef: { apiGroup: RBAC, kind: kind === 'RoleBinding' ? 'Role' : 'ClusterRole', name: role },
      subjects,
    });

  test('another team’s account, owned by OLM v0’s CSV, is neither offered nor deleted when asked', async () => {
    await subscribe(sb.admin, { namespace: 'team2', package: 'pgpilot', channel: 'stable', targets: ['team2'] });
    await waitForCsv(sb.admin, 'team2', 'pgpilot.v1.4.0');
    assert.ok(await exists('ServiceAccount', 'pgpilot-controller', 'team2'), 'OLM v0 made pgpilot’s account');
    const ce = await extension('borrowed', 'team2', 'pgpilot-controller');
    const p = await preview('borrowed');
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.deepEqual(p.body.access, []);
    const sa = p.body.notOffered.find((n) => n.kind === 'ServiceAccount');
    assert.equal(sa?.name, 'pgpilot-controller');
    assert.match(sa?.reason ?? '', /owned by ClusterServiceVersion pgpilot\.v1\.4\.0/);

    const asked = await uninstall('borrowed', ce.metadata!.generation ?? 1, [
      { kind: 'ServiceAccount', name: 'pgpilot-controller', namespace: 'team2' },
    ]);
    assert.equal(asked.status, 400);
    assert.match(asked.body.error.message, /ServiceAccount team2\/pgpilot-controller is not offered with borrowed: /);
    assert.ok(await exists('ServiceAccount', 'pgpilot-controller', 'team2'));
    await extensionStays('borrowed');
  });

  test('a role feeding `view` is never offered, marked or not, and bob keeps what it gave him', async () => {
    await sb.admin.create(NAMESPACE_TYPE, { metadata: { name: 'certs-v1' } });
    await sb.admin.create(SERVICE_ACCOUNT_TYPE, { metadata: { name: 'certs', namespace: 'certs-v1' } });
    const ce = await extension('certs', 'certs-v1', 'certs');
    const mark = { [MARK]: `certs/${ce.metadata!.uid}` };
    const feedsView = { [`${RBAC}/aggregate-to-view`]: 'true' };
    const rules = [{ apiGroups: ['certwarden.example.com'], resources: ['certificates'], verbs: ['get', 'list'] }];
    const account = [{ kind: 'ServiceAccount', name: 'certs', namespace: 'certs-v1' }];
    // As the probe found it: a view role bound to the account alone, and no mark.
    const viewRole = 'certificates.certwarden.example.com-v1-view';
    await sb.admin.create(rbacType('ClusterRole'), { metadata: { name: viewRole, labels: feedsView }, rules });
    await binding('ClusterRoleBinding', { name: viewRole }, viewRole, account);
    // And the installer role itself carrying the right mark, but feeding view too.
    await sb.admin.create(rbacType('ClusterRole'), {
      metadata: { name: 'certs-installer', labels: feedsView, annotations: mark },
      rules,
    });
    await binding('ClusterRoleBinding', { name: 'certs-installer', annotations: mark }, 'certs-installer', account);
    const listCertificates = () => accessReview(bob, 'list', 'certwarden.example.com', 'certificates', 'default');
    await waitFor('bob may list certificates through view', async () =>
      (await listCertificates()).allowed ? true : undefined,
    );

    const p = await preview('certs');
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.deepEqual(p.body.access, [{ kind: 'ClusterRoleBinding', name: 'certs-installer' }]);
    assert.match(
      p.body.notOffered.find((n) => n.kind === 'ClusterRole' && n.name === 'certs-installer')?.reason ?? '',
      /it is one of Kubernetes’ or OLM’s shared roles \(it feeds other roles \(aggregate-to-view\)\)/,
    );
    assert.ok(!p.body.notOffered.some((n) => n.name === viewRole), 'a role by another name is no candidate at all');

    for (const role of [viewRole, 'certs-installer']) {
      const asked = await uninstall('certs', ce.metadata!.generation ?? 1, [{ kind: 'ClusterRole', name: role }]);
      assert.equal(asked.status, 400, role);
      assert.ok(await exists('ClusterRole', role), role);
    }
    await extensionStays('certs');
    assert.equal((await listCertificates()).allowed, true, 'bob may still list certificates');
  });

  test('no mark, or a mark for another extension or uid, is not the install’s; nor a binding shared', async () => {
    await sb.admin.create(NAMESPACE_TYPE, { metadata: { name: 'forged-v1' } });
    const ce = await extension('forged', 'forged-v1', 'forged');
    const account = [{ kind: 'ServiceAccount', name: 'forged', namespace: 'forged-v1' }];
    const rules = [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }];
    // No mark on the account; the ClusterRole's names a same-named extension of another uid; the
    // Role's names another extension; the RoleBinding is marked right but grants alice as well.
    await sb.admin.create(SERVICE_ACCOUNT_TYPE, { metadata: { name: 'forged', namespace: 'forged-v1' } });
    const earlier = 'forged/2f1c1b7e-0000-4000-8000-000000000000';
    await sb.admin.create(rbacType('ClusterRole'), {
      metadata: { name: 'forged-installer', annotations: { [MARK]: earlier } },
      rules,
    });
    await sb.admin.create(rbacType('Role'), {
      metadata: {
        name: 'forged-installer',
        namespace: 'forged-v1',
        annotations: { [MARK]: `certs/${ce.metadata!.uid}` },
      },
      rules,
    });
    await binding(
      'RoleBinding',
      { name: 'forged-installer', namespace: 'forged-v1', annotations: { [MARK]: `forged/${ce.metadata!.uid}` } },
      'forged-installer',
      [...account, { apiGroup: RBAC, kind: 'User', name: 'alice' }],
    );

    const p = await preview('forged');
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.deepEqual(p.body.access, []);
    const why = Object.fromEntries(p.body.notOffered.map((n) => [n.kind, n.reason]));
    assert.match(why.ServiceAccount ?? '', /carries no mark of this console's install of forged/);
    assert.match(why.ClusterRole ?? '', new RegExp(`its mark names ${earlier}, not this extension`));
    assert.match(why.Role ?? '', /its mark names certs\//);
    assert.match(why.RoleBinding ?? '', /it binds ServiceAccount forged-v1\/forged, User alice, not .* alone/);

    const everything: Access[] = [
      { kind: 'ServiceAccount', name: 'forged', namespace: 'forged-v1' },
      { kind: 'ClusterRole', name: 'forged-installer' },
      { kind: 'Role', name: 'forged-installer', namespace: 'forged-v1' },
      { kind: 'RoleBinding', name: 'forged-installer', namespace: 'forged-v1' },
    ];
    for (const a of everything) {
      const asked = await uninstall('forged', ce.metadata!.generation ?? 1, [a]);
      assert.equal(asked.status, 400, `${a.kind}: ${JSON.stringify(asked.body)}`);
      assert.ok(await exists(a.kind as keyof typeof TYPES, a.name, a.namespace), a.kind);
    }
    await extensionStays('forged');
  });

  test('what the wizard made is offered, and the request takes exactly that; any other name is “not offered”', async () => {
    const body: V1InstallRequestBody = {
      catalog: 'olm-console-demo',
      packageName: 'pgpilot',
      name: 'pgpilot',
      namespace: 'pgpilot-v1',
      serviceAccount: { name: 'pgpilot-installer', grant: true },
      version: '1.4.0',
      channels: [],
      onlyThisCatalog: false,
      upgradeConstraintPolicy: 'CatalogProvided',
    };
    const made = await waitFor('the catalog served', async () => {
      const r = await sb.call<V1InstallAnswer & ErrorBody>(INSTALL, '/api/olm-v1/clusterextensions', {
        method: 'POST',
        body,
      });
      return r.status === 201 ? r : undefined;
    });
    assert.deepEqual(
      made.body.warnings.filter((w) => w.code === 'unmarked'),
      [],
    );
    const p = await preview('pgpilot');
    assert.equal(p.status, 200, JSON.stringify(p.body));
    assert.deepEqual(p.body.access, [
      { kind: 'ServiceAccount', name: 'pgpilot-installer', namespace: 'pgpilot-v1' },
      { kind: 'ClusterRoleBinding', name: 'pgpilot-installer' },
      { kind: 'RoleBinding', name: 'pgpilot-installer', namespace: 'pgpilot-v1' },
      { kind: 'ClusterRole', name: 'pgpilot-installer' },
      { kind: 'Role', name: 'pgpilot-installer', namespace: 'pgpilot-v1' },
    ]);
    assert.deepEqual(p.body.notOffered, []);

    // OLM v0 names roles in mixed case, and RBAC names may hold colons: the request reads such a
    // name and refuses it as not offered, never as a malformed name.
    const team2Roles = await sb.admin.list<KubeObject>(rbacType('Role'), { namespace: 'team2' });
    const v0Role = team2Roles.items.map((r) => r.metadata?.name ?? '').find((n) => /[A-Z]/.test(n));
    assert.ok(v0Role, 'OLM v0 made a mixed-case Role in team2');
    for (const odd of [
      { kind: 'Role', name: v0Role, namespace: 'team2' },
      { kind: 'ClusterRole', name: 'Team:Shared-Reader' },
    ]) {
      const asked = await uninstall('pgpilot', p.body.generation, [odd]);
      assert.equal(asked.status, 400);
      assert.match(
        asked.body.error.message,
        new RegExp(`${odd.kind} .*${odd.name.replace(/[.]/g, '\\.')} is not offered`),
      );
    }
    assert.ok(await exists('Role', v0Role, 'team2'));
    await extensionStays('pgpilot');

    const done = await uninstall('pgpilot', p.body.generation, p.body.access);
    assert.equal(done.status, 200, JSON.stringify(done.body));
    assert.deepEqual(
      done.body.access.map((a) => a.outcome),
      p.body.access.map(() => 'deleted'),
    );
    for (const a of p.body.access) assert.equal(await exists(a.kind as keyof typeof TYPES, a.name, a.namespace), false);
  });
});

const TYPES = {
  ServiceAccount: SERVICE_ACCOUNT_TYPE,
  ClusterRole: rbacType('ClusterRole'),
  ClusterRoleBinding: rbacType('ClusterRoleBinding'),
  Role: rbacType('Role'),
  RoleBinding: rbacType('RoleBinding'),
};
