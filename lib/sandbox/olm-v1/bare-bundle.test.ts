// A catalog bundle given only by an image, with neither olm.bundle.object nor olm.csv.metadata: OLM v1
// has nothing but the image to install it from. operator-controller v1.2.0 resolves it, then its
// pull fails (internal/shared/util/image/pull.go: "error creating image source: …"); the reconcile
// sets Progressing from that error wrapped with the resolved bundle (wrapErrorWithResolutionInfo,
// Retrying as it is not terminal) and Installed False "No bundle installed"
// (setInstalledStatusFromBundle, controllers/common_controller.go). The sandbox cannot pull either.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '../testing/sandbox-fixture';
import type { KObject } from '../store/types';

const IMAGE = `quay.io/example/bare-bundle@sha256:${'a'.repeat(64)}`;

describe('a bundle with neither objects nor CSV metadata', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const dir = mkdtempSync(join(tmpdir(), 'olm-v1-bare-'));
  const find = (group: string, version: string, plural: string) => sb.api.resources.find(group, version, plural)!;

  before(async () => {
    mkdirSync(join(dir, 'bare'), { recursive: true });
    const blobs = [
      { schema: 'olm.package', name: 'bare', defaultChannel: 'stable' },
      { schema: 'olm.channel', package: 'bare', name: 'stable', entries: [{ name: 'bare.v1.0.0' }] },
      {
        schema: 'olm.bundle',
        package: 'bare',
        name: 'bare.v1.0.0',
        image: IMAGE,
        properties: [{ type: 'olm.package', value: { packageName: 'bare', version: '1.0.0' } }],
      },
    ];
    writeFileSync(join(dir, 'bare', 'catalog.json'), blobs.map((b) => JSON.stringify(b)).join('\n') + '\n');
    sb = await withSandbox({ catalogs: [join(dir, 'bare')], deploymentDelayMs: 10 });
    const create = (group: string, version: string, plural: string, o: Record<string, unknown>) =>
      sb.api.createObject(find(group, version, plural), o as unknown as KObject);
    create('', 'v1', 'namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'bare-system' } });
    create('', 'v1', 'serviceaccounts', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'installer', namespace: 'bare-system' },
    });
    create('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'bare-installer-admin' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'bare-system' }],
    });
    await sb.olmV1.settled();
  });
  after(() => sb.close());

  test('resolves, cannot be pulled: Progressing Retrying with the pull error, nothing installed', async () => {
    const ce = find('olm.operatorframework.io', 'v1', 'clusterextensions');
    sb.api.createObject(ce, {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterExtension',
      metadata: { name: 'bare' },
      spec: {
        namespace: 'bare-system',
        serviceAccount: { name: 'installer' },
        source: { sourceType: 'Catalog', catalog: { packageName: 'bare' } },
      },
    } as unknown as KObject);
    await sb.olmV1.settled();
    const got = sb.api.storeGet(ce, undefined, 'bare') as unknown as {
      status: { conditions: { type: string; status: string; reason: string; message: string }[]; install?: unknown };
    };
    const cond = (t: string) => got.status.conditions.find((c) => c.type === t);
    const progressing = cond('Progressing')!;
    assert.deepEqual([progressing.status, progressing.reason], ['True', 'Retrying']);
    assert.match(progressing.message, /^error creating image source: /);
    assert.ok(progressing.message.includes(IMAGE), progressing.message);
    assert.ok(progressing.message.endsWith(' for resolved bundle "bare.v1.0.0" with version "1.0.0"'));
    const installed = cond('Installed')!;
    assert.deepEqual(
      [installed.status, installed.reason, installed.message],
      ['False', 'Failed', 'No bundle installed'],
    );
    assert.equal(got.status.install, undefined);
    const deployments = sb.api
      .storeList(find('apps', 'v1', 'deployments'))
      .filter((d) => d.metadata.namespace === 'bare-system');
    assert.deepEqual(deployments, []);
  });
});
