// The event stream follows the cluster through a restart: its own process, because the
// console's cluster settings are read once per process.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startSandbox, type Sandbox } from '@/lib/sandbox/server/sandbox';
import { clientAs, ensureNamespace } from '@/lib/server/testing/cluster';
import { sseReader } from '@/lib/server/testing/sse-reader';

const SUBS = {
  group: 'operators.coreos.com',
  version: 'v1alpha1',
  plural: 'subscriptions',
  namespaced: true,
  kind: 'Subscription',
};
const sub = (name: string) => ({
  metadata: { name, namespace: 'watched' },
  spec: { name: 'x', source: 'nowhere', sourceNamespace: 'olm' },
});

test('across a sandbox restart the stream says it is reconnecting, then delivers what changed', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'olm-events-restart-'));
  const dataFile = join(dir, 'data.jsonl');
  const kubeconfigPath = join(dir, 'kubeconfig');
  // A sandbox with a data file, so a restart keeps the objects.
  let live: Sandbox | undefined = await startSandbox({ port: 0, kubeconfigPath, dataFile, demo: false });
  const abort = new AbortController();
  let ev: ReturnType<typeof sseReader> | undefined;
  try {
    const port = live.port;
    process.env.OLM_CONSOLE_KUBECONFIG = kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    const { GET } = await import('./route');
    await ensureNamespace(clientAs(live, 'admin'), 'watched');
    ev = sseReader(
      await GET(
        new Request('http://console.local/api/events?w=subs:subscriptions:watched', {
          signal: abort.signal,
          headers: { authorization: `Bearer ${live.tokens.admin!}` },
        }),
      ),
    );
    await ev.next((e) => e.event === 'snapshot');
    await live.stop();
    live = undefined;
    await ev.next((e) => e.event === 'status' && e.data?.state === 'retrying', 15_000);
    live = await startSandbox({ port, kubeconfigPath, dataFile, demo: false });
    await clientAs(live, 'admin').create(SUBS, sub('after-restart'));
    // Created while the watch was reconnecting, it comes as a change, or in a new snapshot when
    // the restarted cluster cannot resume the old resourceVersion.
    const seen = await ev.next(
      (e) =>
        (e.event === 'change' && e.data?.object?.metadata?.name === 'after-restart') ||
        (e.event === 'snapshot' && !!e.data?.items?.some((i) => i.metadata?.name === 'after-restart')),
      40_000,
    );
    assert.ok(seen);
  } finally {
    await ev?.cancel().catch(() => undefined);
    abort.abort();
    await live?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
