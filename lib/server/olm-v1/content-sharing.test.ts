// A new replica starts with the ClusterCatalog content another replica read: shared through the
// console namespace's ConfigMaps (lib/catalog/shared-snapshots.ts), with nothing on its own disk.
// Each replica is a process of its own; the second starts after catalogd has stopped (the API
// server still answering), so content it shows can only have come from what the first shared.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { SNAPSHOTS_CONFIGMAP } from '../../catalog/shared-snapshots';
import { CONFIG_MAP_TYPE, NAMESPACE_TYPE } from '../../k8s/core-kinds';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { clientAs, waitFor } from '../testing/cluster';
import { CLUSTER_CATALOG_TYPE, type ClusterCatalog } from './resources';

const run = promisify(execFile);
const cache = join(import.meta.dirname, 'content-cache.ts');
const sharing = join(import.meta.dirname, '..', 'catalog-snapshot-sharing.ts');
const indexModule = join(import.meta.dirname, '..', '..', 'catalog', 'catalog-index.ts');
const NAMESPACE = 'console-home';

interface Id {
  base: string;
  ref: string;
  unpacked: string;
}

/** What a replica started now, with no snapshot folder, makes of one content address. */
async function replicaRead(kubeconfig: string, id: Id, env: Record<string, string>) {
  const code = `
    const { KubeConfig } = require('@kubernetes/client-node');
    const { catalogContent, restoreCatalogContent } = require(${JSON.stringify(cache)});
    const { shareCatalogSnapshots } = require(${JSON.stringify(sharing)});
    const { sharedCatalogIndex } = require(${JSON.stringify(indexModule)});
    shareCatalogSnapshots(sharedCatalogIndex());
    const kc = new KubeConfig();
    kc.loadFromFile(${JSON.stringify(kubeconfig)});
    restoreCatalogContent()
      .then(() => catalogContent(kc, ${JSON.stringify(id.base)}, ${JSON.stringify(id.ref)}, ${JSON.stringify(id.unpacked)}))
      .then((i) => console.log(JSON.stringify({ summary: i.summary, packages: [...(i.catalog?.packages.keys() ?? [])] })));
  `;
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '-e', code], {
    env: {
      ...process.env,
      OLM_CONSOLE_CATALOG_SNAPSHOT_DIR: '',
      OLM_CONSOLE_KUBECONFIG: kubeconfig,
      OLM_CONSOLE_NAMESPACE: NAMESPACE,
      LOG_LEVEL: 'error',
      ...env,
    },
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    summary: { read: boolean; why?: string };
    packages: string[];
  };
}

describe('ClusterCatalog content shared between replicas', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let id: Id;
  let read: string[];
  const key = randomBytes(32).toString('hex');
  const shared = { OLM_CONSOLE_SHARED_CATALOG_SNAPSHOTS: 'true', OLM_CONSOLE_SESSION_KEY: key };

  before(async () => {
    sb = await withSandbox({ deploymentDelayMs: 10 });
    const admin = clientAs(sb, 'admin');
    await admin.create(NAMESPACE_TYPE, { metadata: { name: NAMESPACE } });
    const cc = await waitFor('the demo ClusterCatalog serving', async () => {
      const c = (await admin.listAll<ClusterCatalog>(CLUSTER_CATALOG_TYPE)).items.find(
        (x) => x.metadata?.name === 'olm-console-demo',
      );
      return c?.status?.urls?.base && c.status.resolvedSource?.image?.ref ? c : undefined;
    });
    id = {
      base: cc.status!.urls!.base!,
      ref: cc.status!.resolvedSource!.image!.ref!,
      unpacked: cc.status!.lastUnpacked ?? '',
    };
    const first = await replicaRead(sb.kubeconfigPath, id, shared);
    assert.equal(first.summary.read, true);
    read = first.packages.sort();
    await waitFor('the shared content', async () => {
      const cm = await admin
        .get<{ data?: Record<string, string> }>(CONFIG_MAP_TYPE, SNAPSHOTS_CONFIGMAP, NAMESPACE)
        .catch(() => undefined);
      return Object.keys(cm?.data ?? {}).some((k) => k.startsWith('v.')) ? true : undefined;
    });
    await sb.olmV1.stop();
  });
  after(() => sb.close());

  test('with catalogd gone, a new replica has the content the first read', async () => {
    assert.ok(read.length > 0);
    const second = await replicaRead(sb.kubeconfigPath, id, shared);
    assert.equal(second.summary.read, true);
    assert.deepEqual(second.packages.sort(), read);
  });

  test('a replica that does not share, or holds another session key, has to read catalogd, which is gone', async () => {
    const alone = await replicaRead(sb.kubeconfigPath, id, {});
    assert.equal(alone.summary.read, false);
    const otherKey = { ...shared, OLM_CONSOLE_SESSION_KEY: randomBytes(32).toString('hex') };
    const other = await replicaRead(sb.kubeconfigPath, id, otherKey);
    assert.equal(other.summary.read, false);
  });
});
