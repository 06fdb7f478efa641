// RBAC's escalation check on people's writes, and the ClusterRole aggregation it reads through,
// against the sandbox over HTTP as the seed users. The expected statuses and words are
// kube-apiserver 1.34's (pkg/registry/rbac/*/policybased, validation.ConfirmNoEscalation);
// conformance/checks/rbac.ts compares the same requests with the real cluster.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '../testing/sandbox-fixture';

type Answer = { status: number; body: Record<string, unknown> };
const RBAC = '/apis/rbac.authorization.k8s.io/v1';
const HELD_BY_NO_ONE_BUT_ADMINS =
  '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}';

function role(name: string, rules: object[]) {
  return { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name }, rules };
}

function roleBinding(name: string, kind: 'Role' | 'ClusterRole', roleName: string, user = 'carol') {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'RoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name: roleName },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: user }],
  };
}

const notHeld = (resource: string, name: string, missing: string) =>
  `${resource}.rbac.authorization.k8s.io "${name}" is forbidden: user "alice" (groups=["system:authenticated"]) ` +
  `is attempting to grant RBAC permissions not currently held:\n${missing}`;

describe('RBAC escalation for every writer', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  before(async () => {
    sb = await withSandbox({ demo: false });
  });
  after(() => sb.close());

  const call = (user: string, method: string, path: string, body?: unknown, contentType = 'application/json') =>
    new Promise<Answer>((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        new URL(path, sb.url),
        {
          method,
          ca: sb.caPem,
          headers: {
            authorization: `Bearer ${sb.tokens[user]}`,
            accept: 'application/json',
            ...(payload ? { 'content-type': contentType } : {}),
          },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> }),
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const refusal = (a: Answer) => ({
    status: a.status,
    reason: a.body.reason,
    message: a.body.message,
    details: a.body.details,
  });
  const forbidden = (resource: string, name: string, message: string) => ({
    status: 403,
    reason: 'Forbidden',
    message,
    details: { name, group: 'rbac.authorization.k8s.io', kind: resource },
  });

  test('alice cannot bind team1 to cluster-admin', async () => {
    const r = await call('alice', 'POST', `${RBAC}/namespaces/team1/rolebindings`, {
      ...roleBinding('alice-root', 'ClusterRole', 'cluster-admin', 'alice'),
    });
    assert.deepEqual(
      refusal(r),
      forbidden('rolebindings', 'alice-root', notHeld('rolebindings', 'alice-root', HELD_BY_NO_ONE_BUT_ADMINS)),
    );
  });

  test('alice cannot write a Role with a verb she lacks, and is told which rules', async () => {
    const r = await call(
      'alice',
      'POST',
      `${RBAC}/namespaces/team1/roles`,
      role('too-much', [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'impersonate'] },
        { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list'] },
      ]),
    );
    assert.deepEqual(
      refusal(r),
      forbidden(
        'roles',
        'too-much',
        notHeld(
          'roles',
          'too-much',
          '{APIGroups:[""], Resources:["configmaps"], Verbs:["impersonate"]}\n' +
            '{APIGroups:[""], Resources:["nodes"], Verbs:["get" "list"]}',
        ),
      ),
    );
  });

  test('alice may grant what she holds in team1: a Role of her rules, a binding to admin', async () => {
    const r = await call(
      'alice',
      'POST',
      `${RBAC}/namespaces/team1/roles`,
      role('cm-reader', [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list'] }]),
    );
    assert.equal(r.status, 201);
    const b = await call(
      'alice',
      'POST',
      `${RBAC}/namespaces/team1/rolebindings`,
      roleBinding('carol-admin', 'ClusterRole', 'admin'),
    );
    assert.equal(b.status, 201);
  });

  test('a patch is judged by the Role it makes', async () => {
    const r = await call(
      'alice',
      'PATCH',
      `${RBAC}/namespaces/team1/roles/cm-reader`,
      { rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'escalate'] }] },
      'application/merge-patch+json',
    );
    assert.deepEqual(
      refusal(r),
      forbidden(
        'roles',
        'cm-reader',
        notHeld('roles', 'cm-reader', '{APIGroups:[""], Resources:["configmaps"], Verbs:["escalate"]}'),
      ),
    );
  });

  test('a binding to a role that does not exist is NotFound, before anything is granted', async () => {
    const r = await call(
      'alice',
      'POST',
      `${RBAC}/namespaces/team1/rolebindings`,
      roleBinding('ghost', 'ClusterRole', 'no-such-role'),
    );
    assert.deepEqual(refusal(r), {
      status: 404,
      reason: 'NotFound',
      // kube's registry names the resource of the request it judges, not the role's.
      message: 'rolebindings.rbac.authorization.k8s.io "no-such-role" not found',
      details: { name: 'no-such-role', group: 'rbac.authorization.k8s.io', kind: 'rolebindings' },
    });
  });

  test("only the garbage collector's fields of a Role beyond her may alice change", async () => {
    const wide = role('wide', [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }]);
    assert.equal((await call('admin', 'POST', `${RBAC}/namespaces/team1/roles`, wide)).status, 201);
    const path = `${RBAC}/namespaces/team1/roles/wide`;
    const merge = 'application/merge-patch+json';
    const fin = await call('alice', 'PATCH', path, { metadata: { finalizers: ['example.com/keep'] } }, merge);
    assert.equal(fin.status, 200);
    const label = await call('alice', 'PATCH', path, { metadata: { labels: { mine: 'yes' } } }, merge);
    assert.deepEqual(
      refusal(label),
      forbidden('roles', 'wide', notHeld('roles', 'wide', '{APIGroups:["*"], Resources:["*"], Verbs:["*"]}')),
    );
    await call('admin', 'PATCH', path, { metadata: { finalizers: null } }, merge);
  });

  test('`bind` on cluster-admin by name lets alice bind it in team1, and nothing else', async () => {
    const grant = await call(
      'admin',
      'POST',
      `${RBAC}/namespaces/team1/roles`,
      role('may-bind-root', [
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles'],
          verbs: ['bind'],
          resourceNames: ['cluster-admin'],
        },
      ]),
    );
    assert.equal(grant.status, 201);
    const rb = await call(
      'admin',
      'POST',
      `${RBAC}/namespaces/team1/rolebindings`,
      roleBinding('alice-may-bind', 'Role', 'may-bind-root', 'alice'),
    );
    assert.equal(rb.status, 201);
    const ok = await call(
      'alice',
      'POST',
      `${RBAC}/namespaces/team1/rolebindings`,
      roleBinding('carol-root', 'ClusterRole', 'cluster-admin'),
    );
    assert.equal(ok.status, 201);
    const elsewhere = await call(
      'alice',
      'POST',
      `${RBAC}/namespaces/team1/rolebindings`,
      roleBinding('carol-edit', 'ClusterRole', 'system:aggregate-to-edit'),
    );
    assert.equal(elsewhere.status, 201, 'held rules need no bind');
  });

  test('`escalate` on roles lets alice write a Role beyond her rules', async () => {
    await call(
      'admin',
      'POST',
      `${RBAC}/namespaces/team1/roles`,
      role('may-escalate', [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles'], verbs: ['escalate'] }]),
    );
    await call(
      'admin',
      'POST',
      `${RBAC}/namespaces/team1/rolebindings`,
      roleBinding('alice-may-escalate', 'Role', 'may-escalate', 'alice'),
    );
    const r = await call(
      'alice',
      'POST',
      `${RBAC}/namespaces/team1/roles`,
      role('nodes', [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }]),
    );
    assert.equal(r.status, 201);
  });

  test("a ClusterRole matching an aggregated role's selector adds its rules, and takes them when it goes", async () => {
    const path = `${RBAC}/clusterroles`;
    const can = async () =>
      (
        await call('bob', 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
          spec: {
            resourceAttributes: { verb: 'list', group: 'widgets.example.com', resource: 'widgets', namespace: 'team1' },
          },
        })
      ).body.status as { allowed: boolean; reason?: string };
    assert.equal((await can()).allowed, false);
    const extra = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'widgets-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ apiGroups: ['widgets.example.com'], resources: ['widgets'], verbs: ['get', 'list', 'watch'] }],
    };
    assert.equal((await call('admin', 'POST', path, extra)).status, 201);
    const rulesOf = async (name: string) =>
      ((await call('admin', 'GET', `${path}/${name}`)).body.rules ?? []) as object[];
    // view → edit → admin: each aggregates the one before.
    const holds = async (name: string) =>
      (await rulesOf(name)).some((r) => JSON.stringify(r) === JSON.stringify(extra.rules[0]));
    for (const name of ['view', 'edit', 'admin']) assert.ok(await holds(name), name);
    assert.deepEqual(await can(), {
      allowed: true,
      reason: 'RBAC: allowed by ClusterRoleBinding "sandbox:bob-view" of ClusterRole "view" to User "bob"',
    });
    assert.equal((await call('admin', 'DELETE', `${path}/widgets-view`)).status, 200);
    for (const name of ['view', 'edit', 'admin']) assert.ok(!(await holds(name)), name);
    assert.equal((await can()).allowed, false);
  });

  test('an aggregationRule takes cluster-admin, even with `escalate`', async () => {
    await call('admin', 'POST', `${RBAC}/clusterroles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'bob-may-write-clusterroles' },
      rules: [{ apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['create'] }],
    });
    await call('admin', 'POST', `${RBAC}/clusterrolebindings`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'bob-may-write-clusterroles' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'bob-may-write-clusterroles' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    });
    const r = await call('bob', 'POST', `${RBAC}/clusterroles`, {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'gatherer' },
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { gather: 'me' } }] },
    });
    assert.deepEqual(
      refusal(r),
      forbidden(
        'clusterroles',
        'gatherer',
        'clusterroles.rbac.authorization.k8s.io "gatherer" is forbidden: ' +
          'must have cluster-admin privileges to use the aggregationRule',
      ),
    );
  });

  test('a binding of hers to a role that is not there is named after the missing rules', async () => {
    const nodeReader = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'node-reader' },
      rules: [{ apiGroups: [''], resources: ['nodes'], verbs: ['get'] }],
    };
    assert.equal((await call('admin', 'POST', `${RBAC}/clusterroles`, nodeReader)).status, 201);
    const dangling = roleBinding('alice-gone', 'Role', 'gone', 'alice');
    assert.equal((await call('admin', 'POST', `${RBAC}/namespaces/team1/rolebindings`, dangling)).status, 201);
    const r = await call(
      'alice',
      'POST',
      `${RBAC}/namespaces/team1/rolebindings`,
      roleBinding('carol-nodes', 'ClusterRole', 'node-reader'),
    );
    assert.equal(
      r.body.message,
      notHeld('rolebindings', 'carol-nodes', '{APIGroups:[""], Resources:["nodes"], Verbs:["get"]}') +
        '; resolution errors: [rolebindings.rbac.authorization.k8s.io "gone" not found]',
    );
    await call('admin', 'DELETE', `${RBAC}/namespaces/team1/rolebindings/alice-gone`);
  });
});
