// A bundle that ships its own role feeding `edit` moves to OLM v1, against the sandbox: metricsmith
// installed by OLM v0 from a catalog whose metricsmith.v0.4.0 also ships collectors-editor-role,
// labelled rbac.authorization.k8s.io/aggregate-to-edit, the same catalog served to OLM v1 as a
// ClusterCatalog of priority 10. OLM v0 leaves that role when the CSV goes, so the move must take
// it over: the plan names it as adopted and says its rules reach `edit`; once an admin has changed
// its rules the plan refuses, since OLM v1 would then change what editors hold; with the rules as
// OLM v0 wrote them the move reaches Installed and the role is the very one, with its rules,
// now OLM v1's.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { KubeClient } from '@/lib/k8s/client';
import { rbacType } from '@/lib/k8s/core-kinds';
import { isKubeError } from '@/lib/k8s/errors';
import { CATALOG_SOURCE_TYPE } from '@/lib/olm/resources/catalog-source';
import { CSV_TYPE } from '@/lib/olm/resources/cluster-service-version';
import type { MigrationResult, MigrationView } from '@/lib/api/olm-v1-migration';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '@/lib/server/olm-v1/resources';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import {
  EDITOR_CSV,
  EDITOR_PACKAGE,
  EDITOR_ROLE,
  EDITOR_ROLE_RULES,
  writeEditorRoleCatalog,
} from '@/lib/server/testing/editor-role-catalog';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

const CATALOG = 'editor-role-catalog';
const IMAGE = 'quay.example.com/probe/editor-role-catalog:latest';

type Role = {
  metadata: {
    uid?: string;
    labels?: Record<string, string>;
    ownerReferences?: { kind: string; name: string; controller?: boolean }[];
  };
  rules?: unknown[];
};

describe('a move whose bundle ships its own role feeding edit', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0, catalogImages: { [IMAGE]: writeEditorRoleCatalog(CATALOG) } });
  let POST: Handler;
  let PLAN: Handler;
  let admin: KubeClient;
  let uid: string | undefined;
  before(async () => {
    ({ POST } = await import('./route'));
    ({ POST: PLAN } = await import('./plan/route'));
    admin = sb.admin;
    await admin.create(CATALOG_SOURCE_TYPE, {
      metadata: { name: CATALOG, namespace: 'olm' },
      spec: { sourceType: 'grpc', image: IMAGE, displayName: 'Editor role' },
    });
    await subscribe(admin, { namespace: 'operators', package: EDITOR_PACKAGE, channel: 'stable', source: CATALOG });
    await waitForCsv(admin, 'operators', EDITOR_CSV);
    await admin.create(CLUSTER_CATALOG_TYPE, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterCatalog',
      metadata: { name: CATALOG },
      spec: { priority: 10, source: { type: 'Image', image: { ref: IMAGE } } },
    });
    await waitFor(`ClusterCatalog ${CATALOG} serving`, async () => {
      const c = await admin.get<{ status?: { conditions?: { type: string; status: string }[] } }>(
        CLUSTER_CATALOG_TYPE,
        CATALOG,
      );
      return c.status?.conditions?.some((x) => x.type === 'Serving' && x.status === 'True') ? true : undefined;
    });
    uid = (await admin.get<Role>(rbacType('ClusterRole'), EDITOR_ROLE)).metadata.uid;
  });

  const path = `/api/operators/operators/${EDITOR_CSV}/migrate-to-v1`;
  const params = { namespace: 'operators', name: EDITOR_CSV };
  const plan = () => sb.call<MigrationView>(PLAN, `${path}/plan`, { method: 'POST', body: {}, params });

  test('the plan takes the role over and says its rules reach edit', async () => {
    const { status, body } = await plan();
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.canMove, true, JSON.stringify(body.reasons));
    assert.equal(body.catalog, CATALOG);
    assert.deepEqual(
      body.objects?.find((o) => o.kind === 'ClusterRole' && o.name === EDITOR_ROLE),
      { kind: 'ClusterRole', name: EDITOR_ROLE, fate: 'adopt' },
    );
    const adopt = body.steps?.find((s) => s.id === 'adopt');
    assert.ok(
      adopt?.writes.some((w) => w.kind === 'ClusterRole' && w.name === EDITOR_ROLE),
      JSON.stringify(adopt),
    );
    assert.match(
      adopt?.why ?? '',
      new RegExp(`ClusterRole ${EDITOR_ROLE} is the bundle’s own and its rules flow into the edit role`),
    );
  });

  test('with rules an admin changed since, the plan refuses: OLM v1 would change what editors hold', async () => {
    const widened = [...EDITOR_ROLE_RULES, { apiGroups: [''], resources: ['secrets'], verbs: ['get'] }];
    await admin.patch(rbacType('ClusterRole'), EDITOR_ROLE, { rules: widened }, { type: 'merge' });
    try {
      const { status, body } = await plan();
      assert.equal(status, 200, JSON.stringify(body));
      assert.equal(body.canMove, false);
      assert.deepEqual(
        body.reasons.map((r) => [r.code, r.object?.name, r.message]),
        [
          [
            'shared-role',
            EDITOR_ROLE,
            `ClusterRole ${EDITOR_ROLE} is one of Kubernetes’ or OLM’s shared roles (it feeds other roles ` +
              '(aggregate-to-edit)), and the bundle OLM v1 would install gives it other rules than it has: the ' +
              'move would change what the edit roles grant',
          ],
        ],
      );
    } finally {
      await admin.patch(rbacType('ClusterRole'), EDITOR_ROLE, { rules: EDITOR_ROLE_RULES }, { type: 'merge' });
    }
  });

  test('the move reaches Installed, and the role is the very one, with its rules, now OLM v1’s', async () => {
    const { status, body } = await sb.call<MigrationResult>(POST, path, { method: 'POST', body: {}, params });
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.ok, true, JSON.stringify(body));
    const ce = await admin.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, EDITOR_PACKAGE);
    assert.deepEqual(ce.status?.install?.bundle, { name: EDITOR_CSV, version: '0.4.0' });
    const role = await admin.get<Role>(rbacType('ClusterRole'), EDITOR_ROLE);
    assert.equal(role.metadata.uid, uid);
    assert.deepEqual(role.rules, EDITOR_ROLE_RULES);
    assert.equal(role.metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-edit'], 'true');
    assert.equal(role.metadata.labels?.['olm.operatorframework.io/owner-name'], EDITOR_PACKAGE);
    assert.ok(
      role.metadata.ownerReferences?.some((r) => r.kind === 'ClusterExtension' && r.name === EDITOR_PACKAGE),
      JSON.stringify(role.metadata.ownerReferences),
    );
    await assert.rejects(admin.get(CSV_TYPE, EDITOR_CSV, 'operators'), (e) => isKubeError(e, 404));
  });
});
