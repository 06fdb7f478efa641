// A move to OLM v1 whose write is refused half-way is rolled back on the sandbox: the step's
// earlier writes are undone, the later steps never run, and the operator stays OLM v0's with its
// CRD and CacheCluster. (A failure after the ClusterExtension exists cannot be brought about on
// demand in the sandbox, whose operator-controller installs at once.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { CONFIG_MAP_TYPE, CRD_TYPE, DEPLOYMENT_TYPE, SERVICE_ACCOUNT_TYPE, rbacType } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import { SUBSCRIPTION_TYPE } from '../../olm/resources/subscription';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { clientAs, subscribe, waitForCsv } from '../testing/cluster';
import { applyMigration, deleteMadeByV1 } from './migration-apply';
import { CLUSTER_EXTENSION_TYPE } from './resources';

const CACHE = {
  group: 'cachely.example.com',
  version: 'v1',
  plural: 'cacheclusters',
  namespaced: true,
  kind: 'CacheCluster',
};
const CSV = 'cachely.v0.9.2';

describe('a move to OLM v1 that fails is rolled back', () => {
  let admin: KubeClient;
  let close: () => Promise<void>;
  before(async () => {
    const sb = await withSandbox({ deploymentDelayMs: 10 });
    close = () => sb.close();
    admin = clientAs(sb, 'admin');
    await subscribe(admin, { namespace: 'operators', package: 'cachely', channel: 'alpha' });
    await waitForCsv(admin, 'operators', CSV);
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
  after(() => close?.());

  test('a write refused half-way through a step: its earlier writes undone, nothing else touched', async () => {
    // Someone else's binding under the installer's name: the third write of the first step fails.
    await admin.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'cachely-installer' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'ServiceAccount', name: 'someone', namespace: 'team1' }],
    });
    const result = await applyMigration(admin, 'operators', CSV);
    assert.equal(result.ok, false, JSON.stringify(result));
    assert.match(
      result.message ?? '',
      /^Give OLM v1 an installer account, operators\/cachely-installer failed: .*already exists/,
    );
    assert.deepEqual(
      result.steps.map((s) => [s.id, s.state]),
      [
        ['installer', 'undone'],
        ['delete-subscription', 'not-run'],
        ['orphan-csv', 'not-run'],
        ['adopt', 'not-run'],
        ['create-extension', 'not-run'],
        ['wait-installed', 'not-run'],
        ['cleanup', 'not-run'],
      ],
    );
    assert.deepEqual(result.notRestored, []);
    await assert.rejects(admin.get(SERVICE_ACCOUNT_TYPE, 'cachely-installer', 'operators'), (e) => isKubeError(e, 404));
    await assert.rejects(admin.get(rbacType('ClusterRole'), 'cachely-installer'), (e) => isKubeError(e, 404));
    const binding = await admin.get<{ subjects: { name: string }[] }>(
      rbacType('ClusterRoleBinding'),
      'cachely-installer',
    );
    assert.equal(binding.subjects[0]!.name, 'someone');
    await admin.get(SUBSCRIPTION_TYPE, 'cachely', 'operators');
    await waitForCsv(admin, 'operators', CSV);
    await assert.rejects(admin.get(CLUSTER_EXTENSION_TYPE, 'cachely'), (e) => isKubeError(e, 404));
    const dep = await admin.get<{ metadata: { labels?: Record<string, string> } }>(
      DEPLOYMENT_TYPE,
      'cachely-controller-manager',
      'operators',
    );
    assert.equal(dep.metadata.labels?.['app.kubernetes.io/managed-by'], undefined);
    await admin.get(CRD_TYPE, 'cacheclusters.cachely.example.com');
    assert.ok(await admin.get(CACHE, 'sessions', 'team1'));
  });

  test('rolled back after v1 failed, only what v1 made for the extension is deleted; an object made meanwhile stays', async () => {
    // The plan said v1 would create these names (the bundle chose them). One v1 made, with its
    // owner labels; one someone made after the move looked, which is why v1 failed on it.
    const v1Labels = {
      'olm.operatorframework.io/owner-kind': 'ClusterExtension',
      'olm.operatorframework.io/owner-name': 'cachely',
    };
    await admin.create(
      CONFIG_MAP_TYPE,
      { metadata: { name: 'cachely-made-by-v1', namespace: 'team1', labels: v1Labels } },
      { namespace: 'team1' },
    );
    await admin.create(
      CONFIG_MAP_TYPE,
      { metadata: { name: 'cachely-made-meanwhile', namespace: 'team1', labels: { app: 'someone' } } },
      { namespace: 'team1' },
    );
    const other = { ...v1Labels, 'olm.operatorframework.io/owner-name': 'another' };
    await admin.create(
      CONFIG_MAP_TYPE,
      { metadata: { name: 'cachely-of-another', namespace: 'team1', labels: other } },
      { namespace: 'team1' },
    );
    const planned = ['cachely-made-by-v1', 'cachely-made-meanwhile', 'cachely-of-another', 'cachely-never-made'].map(
      (name) => ({ verb: 'delete' as const, type: CONFIG_MAP_TYPE, name, namespace: 'team1' }),
    );
    const notRestored = await deleteMadeByV1(admin, planned, 'cachely');
    assert.deepEqual(notRestored, [
      'ConfigMap team1/cachely-made-meanwhile is left: OLM v1 did not make it for cachely',
      'ConfigMap team1/cachely-of-another is left: OLM v1 did not make it for cachely',
    ]);
    await assert.rejects(admin.get(CONFIG_MAP_TYPE, 'cachely-made-by-v1', 'team1'), (e) => isKubeError(e, 404));
    await admin.get(CONFIG_MAP_TYPE, 'cachely-made-meanwhile', 'team1');
    await admin.get(CONFIG_MAP_TYPE, 'cachely-of-another', 'team1');
  });
});
