// GET /api/me/namespaces against the sandbox, as each seed user: admin and bob (view) may list
// namespaces; alice (admin of team1 only) may not, so the names her browser remembers are checked.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { MyNamespacesAnswer } from '@/lib/api/my-namespaces';
import type { ResourceType } from '@/lib/olm/resources/common';
import { CONSOLE_ORIGIN } from '@/lib/server/testing/console-request';
import { routeSandbox, type ErrorBody, type Handler } from '@/lib/server/testing/route-sandbox';

const CRD: ResourceType = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  plural: 'customresourcedefinitions',
  namespaced: false,
  kind: 'CustomResourceDefinition',
};
const CLUSTER_ROLE: ResourceType = {
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  plural: 'clusterroles',
  namespaced: false,
  kind: 'ClusterRole',
};
const CLUSTER_ROLE_BINDING: ResourceType = {
  ...CLUSTER_ROLE,
  plural: 'clusterrolebindings',
  kind: 'ClusterRoleBinding',
};
const PROJECT: ResourceType = {
  group: 'project.openshift.io',
  version: 'v1',
  plural: 'projects',
  namespaced: false,
  kind: 'Project',
};

describe('GET /api/me/namespaces', () => {
  const rs = routeSandbox({ demo: false });
  let GET: Handler;
  before(async () => {
    ({ GET } = await import('./route'));
  });
  const ask = (path: string, user: string) => rs.call<MyNamespacesAnswer>(GET, path, { user });

  test('an administrator and a cluster viewer get every namespace and may read operators in all', async () => {
    for (const user of ['admin', 'bob']) {
      const { status, body } = await ask('/api/me/namespaces', user);
      assert.equal(status, 200);
      assert.equal(body.source, 'namespaces');
      assert.equal(body.clusterWide, true);
      assert.equal(body.username, user);
      assert.ok(body.namespaces.includes('team1') && body.namespaces.includes('operators'), body.namespaces.join());
    }
  });

  test('a typed name that does not exist is said to be missing to a person who may list namespaces', async () => {
    const { body } = await ask('/api/me/namespaces?candidate=nowhere', 'bob');
    assert.deepEqual(body.refused, [{ name: 'nowhere', reason: 'namespace nowhere does not exist' }]);
  });

  test('a namespace admin who may not list namespaces is offered only what a review confirms', async () => {
    const bare = await ask('/api/me/namespaces', 'alice');
    assert.equal(bare.status, 200);
    assert.deepEqual(
      { source: bare.body.source, clusterWide: bare.body.clusterWide, namespaces: bare.body.namespaces },
      { source: 'access-reviews', clusterWide: false, namespaces: [] },
    );
    const { body } = await ask('/api/me/namespaces?candidate=team1&candidate=operators', 'alice');
    assert.deepEqual(body.namespaces, ['team1']);
    assert.equal(body.refused.length, 1);
    assert.equal(body.refused[0]!.name, 'operators');
    assert.match(
      body.refused[0]!.reason,
      /neither read nor install operators in operators: you may not list clusterserviceversions/,
    );
  });

  test('without a login it is a 401, which the pages turn into the login page', async () => {
    const res = await GET(new Request(`${CONSOLE_ORIGIN}/api/me/namespaces?candidate=team1`), {
      params: Promise.resolve({}),
    });
    assert.equal(res.status, 401);
  });

  test('bad candidates are a 400 naming the parameter, and nothing is asked', async () => {
    const bad = await rs.call<ErrorBody>(GET, '/api/me/namespaces?candidate=Team_1', { user: 'alice' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /^candidate/);
    const many = Array.from({ length: 21 }, (_, i) => `candidate=n${i}`).join('&');
    const tooMany = await rs.call<ErrorBody>(GET, `/api/me/namespaces?${many}`, { user: 'alice' });
    assert.equal(tooMany.status, 400);
    assert.match(tooMany.body.error.message, /at most 20 names/);
    const unknown = await rs.call<ErrorBody>(GET, '/api/me/namespaces?ns=team1', { user: 'alice' });
    assert.equal(unknown.status, 400);
  });

  test("where project.openshift.io serves projects, they are the person's list", async () => {
    await rs.admin.create(CRD, {
      metadata: { name: 'projects.project.openshift.io' },
      spec: {
        group: 'project.openshift.io',
        scope: 'Cluster',
        names: { plural: 'projects', singular: 'project', kind: 'Project', listKind: 'ProjectList' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    });
    await rs.admin.create(PROJECT, { metadata: { name: 'team1' } });
    await rs.admin.create(CLUSTER_ROLE, {
      metadata: { name: 'projects-reader' },
      rules: [{ apiGroups: ['project.openshift.io'], resources: ['projects'], verbs: ['list'] }],
    });
    await rs.admin.create(CLUSTER_ROLE_BINDING, {
      metadata: { name: 'alice-projects' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'projects-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'alice' }],
    });
    const { body } = await ask('/api/me/namespaces', 'alice');
    assert.equal(body.source, 'projects');
    assert.deepEqual(body.namespaces, ['team1']);
  });
});
