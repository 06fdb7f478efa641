// A graceful stop right after a console's first read: the snapshot written in the background is
// waited for (bounded), so the next start serves OperatorHub from it instead of reading again.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import pino from 'pino';
import { CatalogIndex } from '../../catalog/catalog-index';
import { KubeClient } from '../../k8s/client';
import { withSandbox } from '../../sandbox/testing/sandbox-fixture';
import { finishSnapshotWrites } from './unfinished-writes';

const DEMO = 'olm/olm-console-demo';

describe('a graceful stop and the catalog snapshots', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const clientFor = (user: string) => {
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigs[user]!);
    return new KubeClient(kc);
  };
  before(async () => {
    sb = await withSandbox();
  });
  after(() => sb.close());

  test('a stop right after the first read waits for the snapshot, and the next start is warm', async () => {
    const dir = mkdtempSync(join(sb.dir, 'stop-'));
    const index = new CatalogIndex(Date.now, { snapshotDir: dir });
    const first = await index.forUser(clientFor('admin'), ['olm']);
    await finishSnapshotWrites(pino({ level: 'silent' }), 10_000);
    assert.ok(existsSync(dir) && readdirSync(dir).some((f) => f.endsWith('.catalog.gz')), 'written before the stop');
    const restarted = new CatalogIndex(Date.now, { snapshotDir: dir });
    const r = await restarted.forUser(clientFor('admin'), ['olm']);
    assert.equal(r.contentKey, first.contentKey);
    assert.equal(restarted.reading(DEMO), false);
  });
});
