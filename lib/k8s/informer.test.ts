// The console's list-then-watch loop against the sandbox: it must survive dropped watches and a
// history that moved on (410), and end with exactly the cluster's state.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { withSandbox } from '../sandbox/testing/sandbox-fixture';
import type { KObject } from '../sandbox/store/types';
import { KubeClient, type ResourceType } from './client';
import { startInformer, type InformerEvent, type InformerState } from './informer';

const CM: ResourceType = { group: '', version: 'v1', plural: 'configmaps', namespaced: true, kind: 'ConfigMap' };

async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('startInformer', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let client: KubeClient;
  before(async () => {
    sb = await withSandbox({ historyLimit: 5 });
    const kc = new KubeConfig();
    kc.loadFromFile(sb.kubeconfigPath);
    client = new KubeClient(kc);
  });
  after(() => sb.close());

  const cmRes = () => sb.api.resources.find('', 'v1', 'configmaps')!;
  const put = (name: string, data: Record<string, string> = {}) =>
    sb.api.createObject(cmRes(), {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name, namespace: 'team1' },
      data,
    } as KObject);

  test('lists, then follows changes; resumes after a dropped watch; relists after 410', async () => {
    put('before');
    const events: InformerEvent<KObject & { data?: Record<string, string> }>[] = [];
    const states: InformerState['state'][] = [];
    const inf = startInformer<KObject & { data?: Record<string, string> }>(client, CM, {
      namespace: 'team1',
      onEvent: (e) => events.push(e),
      onState: (s) => states.push(s.state),
      maxBackoffMs: 300,
    });
    try {
      await inf.synced;
      assert.deepEqual([...inf.objects.keys()], ['team1/before']);

      await until(() => states.includes('watching'), 'the watch');
      put('a');
      await until(() => inf.objects.has('team1/a'), 'a');

      // A dropped stream: the informer comes back from its last resourceVersion, no relist.
      const watchingBefore = states.filter((s) => s === 'watching').length;
      sb.api.dropWatches();
      put('b');
      await until(() => inf.objects.has('team1/b'), 'b after the drop');
      assert.ok(states.filter((s) => s === 'watching').length > watchingBefore);

      // The history moves on by more than the server keeps while the watch is down: 410, relist,
      // and the differences arrive as ordinary events (a deletion included).
      const listsBefore = states.filter((s) => s === 'listing').length;
      sb.api.dropWatches();
      sb.api.deleteObject(cmRes(), 'team1', 'a');
      for (let i = 0; i < 8; i++) put(`burst-${i}`);
      await until(() => inf.objects.size === 10, 'the state after the burst');
      assert.ok(states.filter((s) => s === 'listing').length > listsBefore, 'a relist happened');
      assert.ok(events.some((e) => e.type === 'DELETED' && e.object.metadata.name === 'a'));
      const server = sb.store
        .list(
          { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap', namespaced: true },
          { namespace: 'team1' },
        )
        .items.map((o) => o.metadata.name)
        .sort();
      assert.deepEqual([...inf.objects.values()].map((o) => o.metadata?.name).sort(), server);
    } finally {
      inf.stop();
    }
  });

  test('each cut stream is picked up again at once: the backoff starts over once a watch is established', async () => {
    const retries: number[] = [];
    let watching = 0;
    const inf = startInformer<KObject>(client, CM, {
      namespace: 'team1',
      onEvent: () => undefined,
      onState: (s) => {
        if (s.state === 'retrying') retries.push(s.attempt);
        else if (s.state === 'watching') watching++;
      },
      maxBackoffMs: 30_000,
    });
    try {
      await inf.synced;
      await until(() => watching >= 1, 'the watch');
      for (let cut = 1; cut <= 5; cut++) {
        const before = watching;
        sb.api.dropWatches();
        await until(() => watching > before, `the watch again after cut ${cut}`, 3_000);
      }
      // Were the attempts counted across cuts, the fifth would wait 8 s and the loop above time out.
      assert.ok(
        retries.every((a) => a === 1),
        `attempts after each cut: ${retries.join(', ')}`,
      );
    } finally {
      inf.stop();
    }
  });
});
