// A version change of an extension the console installed, against the sandbox's operator-controller
// (v1.2.0's behaviour: it installs with the ServiceAccount's token, so every object the new bundle
// brings must be allowed to that account). The install wizard grants one bundle's rights by object
// name; the change widens those roles first, as the person, so v1 reaches the new version, and a
// change the person may not make leaves the roles as they were. Only roles the console marked for
// this extension, bound to its account alone, are widened: a binding that also grants someone else,
// or a role without the mark, makes the change a 409 naming what is wrong, with nothing written.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { VersionPlan } from '@/lib/api/olm-v1-extensions';
import type { V1InstallRequestBody } from '@/lib/api/olm-v1-install';
import { rbacType } from '@/lib/k8s/core-kinds';
import type { KubeObject } from '@/lib/olm/resources/common';
import type { PolicyRule } from '@/lib/olm/resources/cluster-service-version';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '@/lib/server/olm-v1/resources';
import { waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const NAME = 'pgpilot';
const ROLE = `${NAME}-installer`;

describe('changing the version of an extension the console installed', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let INSTALL: Handler, PLAN: Handler, CHANGE: Handler;
  before(async () => {
    ({ POST: INSTALL } = (await import('../../route')) as unknown as { POST: Handler });
    ({ POST: PLAN } = (await import('./plan/route')) as unknown as { POST: Handler });
    ({ PATCH: CHANGE } = (await import('./route')) as unknown as { PATCH: Handler });
  });

  const installed = (version: string) =>
    waitFor(`Installed at ${version}`, async () => {
      const c = await sb.admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, NAME);
      const ok = c.status?.conditions?.some((x) => x.type === 'Installed' && x.status === 'True');
      return ok && c.status?.install?.bundle?.version === version ? c : undefined;
    });
  const rules = async () => (await sb.admin.get<{ rules: PolicyRule[] }>(rbacType('ClusterRole'), ROLE)).rules;

  test('the installer’s roles are widened for the new bundle, and v1 reaches it', async () => {
    const body: V1InstallRequestBody = {
      catalog: 'olm-console-demo',
      packageName: NAME,
      name: NAME,
      namespace: 'pgpilot-v1',
      serviceAccount: { name: 'pgpilot-installer', grant: true },
      version: '1.0.0',
      channels: [],
      onlyThisCatalog: false,
      upgradeConstraintPolicy: 'CatalogProvided',
    };
    const made = await waitFor('the catalog served', async () => {
      const r = await sb.call<ErrorBody>(INSTALL, '/api/olm-v1/clusterextensions', { method: 'POST', body });
      return r.status === 201 ? r : undefined;
    });
    assert.equal(made.status, 201);
    const ce = await installed('1.0.0');
    const before = await rules();
    const path = `/api/olm-v1/clusterextensions/${NAME}/version`;
    const change = { version: '1.1.0', upgradeConstraintPolicy: 'SelfCertified' };
    const plan = await sb.call<VersionPlan & ErrorBody>(PLAN, `${path}/plan`, {
      method: 'POST',
      body: change,
      params: { name: NAME },
    });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.equal(plan.body.resolved?.version, '1.1.0');
    // 1.1.0's bundle names its own ClusterRoles (by CSV name), which 1.0.0's rights do not cover.
    assert.equal(plan.body.rights?.state, 'widen', JSON.stringify(plan.body.rights));
    if (plan.body.rights?.state === 'widen') assert.deepEqual(plan.body.rights.roles, [`ClusterRole ${ROLE}`]);

    // bob may not change it: nothing is written, the roles included.
    const refused = await sb.call<ErrorBody>(CHANGE, path, {
      method: 'PATCH',
      user: 'bob',
      body: { ...change, seen: ce.metadata?.resourceVersion },
      params: { name: NAME },
    });
    assert.equal(refused.status, 403);
    assert.deepEqual(await rules(), before);

    const done = await sb.call<ErrorBody>(CHANGE, path, {
      method: 'PATCH',
      body: {
        ...change,
        seen: (await sb.admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, NAME)).metadata?.resourceVersion,
      },
      params: { name: NAME },
    });
    assert.equal(done.status, 200, JSON.stringify(done.body));
    const after = await installed('1.1.0');
    const progressing = after.status?.conditions?.find((x) => x.type === 'Progressing');
    assert.equal(progressing?.reason, 'Succeeded', progressing?.message);
    // The old bundle's rules stay: Helm still reads and deletes the previous release's objects.
    const now = JSON.stringify(await rules());
    for (const r of before) assert.ok(now.includes(JSON.stringify(r.resources)), `kept ${JSON.stringify(r)}`);
  });

  type Rbac = KubeObject & { subjects?: unknown[]; rules?: PolicyRule[] };
  const alice = { apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' };
  /** Changes one of the installer's RBAC objects as admin, as someone with RBAC rights could. */
  const edit = async (kind: 'ClusterRole' | 'ClusterRoleBinding' | 'RoleBinding', change: (o: Rbac) => Rbac) => {
    const ns = kind === 'RoleBinding' ? 'pgpilot-v1' : undefined;
    const o = await sb.admin.get<Rbac>(rbacType(kind), ROLE, ns);
    await sb.admin.replace(rbacType(kind), change(o));
  };
  const path = `/api/olm-v1/clusterextensions/${NAME}/version`;
  const change = { version: '1.2.0', upgradeConstraintPolicy: 'SelfCertified' };
  /** The plan refuses with `why`, and the change itself is a 409 that writes nothing. */
  const refused = async (why: RegExp) => {
    const plan = await sb.call<VersionPlan & ErrorBody>(PLAN, `${path}/plan`, {
      method: 'POST',
      body: change,
      params: { name: NAME },
    });
    assert.equal(plan.status, 200, JSON.stringify(plan.body));
    assert.equal(plan.body.rights?.state, 'refused', JSON.stringify(plan.body.rights));
    if (plan.body.rights?.state === 'refused') {
      assert.match(plan.body.rights.why, why);
      assert.ok(plan.body.rights.added.length > 0, 'the rules it needs are shown');
    }
    const before = { role: await rules(), ce: await sb.admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, NAME) };
    const r = await sb.call<ErrorBody>(CHANGE, path, {
      method: 'PATCH',
      body: { ...change, seen: before.ce.metadata?.resourceVersion },
      params: { name: NAME },
    });
    assert.equal(r.status, 409, JSON.stringify(r.body));
    assert.match(r.body.error.message, why);
    assert.deepEqual(await rules(), before.role);
    const after = await sb.admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, NAME);
    assert.equal(after.metadata?.resourceVersion, before.ce.metadata?.resourceVersion);
  };

  test('a binding that also grants someone else is not widened: the change is refused, nothing written', async () => {
    await installed('1.1.0');
    await edit('ClusterRoleBinding', (b) => ({ ...b, subjects: [...(b.subjects ?? []), alice] }));
    await refused(
      /ClusterRoleBinding pgpilot-installer: it binds ServiceAccount pgpilot-v1\/pgpilot-installer, User alice/,
    );
    await edit('ClusterRoleBinding', (b) => ({ ...b, subjects: (b.subjects ?? []).slice(0, 1) }));
  });

  test('the RoleBinding of that name is checked too: one granting someone else stops the change', async () => {
    await edit('RoleBinding', (b) => ({ ...b, subjects: [...(b.subjects ?? []), alice] }));
    await refused(
      /RoleBinding pgpilot-v1\/pgpilot-installer: it binds ServiceAccount pgpilot-v1\/pgpilot-installer, User alice/,
    );
    await edit('RoleBinding', (b) => ({ ...b, subjects: (b.subjects ?? []).slice(0, 1) }));
  });

  test('a role without the console’s mark for this extension is not widened', async () => {
    const mark = 'olm-console.io/installed-for';
    let had = '';
    await edit('ClusterRole', (r) => {
      const { [mark]: value, ...rest } = r.metadata?.annotations ?? {};
      had = value ?? '';
      return { ...r, metadata: { ...r.metadata, annotations: rest } };
    });
    assert.match(had, /^pgpilot\/[0-9a-f-]{36}$/, 'the install marked the role with the extension and its uid');
    await refused(/ClusterRole pgpilot-installer carries no mark of this console's install of pgpilot/);
    // A mark copied from another extension is no better.
    await edit('ClusterRole', (r) => ({
      ...r,
      metadata: { ...r.metadata, annotations: { [mark]: `other/${had.split('/')[1]}` } },
    }));
    await refused(/ClusterRole pgpilot-installer carries no mark/);
    await edit('ClusterRole', (r) => ({ ...r, metadata: { ...r.metadata, annotations: { [mark]: had } } }));
    // Put back as the install left them, the roles are widened again.
    const plan = await sb.call<VersionPlan>(PLAN, `${path}/plan`, {
      method: 'POST',
      body: change,
      params: { name: NAME },
    });
    assert.equal(plan.body.rights?.state, 'widen', JSON.stringify(plan.body.rights));
  });
});
