// Snapshot loads under way in this process (the catalog index's, from its disk and from what the
// replicas share), and the warm-up for the first person (lib/server/warm-first-page.ts), so that a
// new replica's warm-up can wait for them before it says it is ready (lib/server/http/warm-up.ts). One set per process, on globalThis: the server and each route
// bundle hold their own copy of this module, and the load starts in whichever made the index.
const KEY = Symbol.for('olm-console.snapshot-loads');
const g = globalThis as { [KEY]?: Set<Promise<unknown>> };
const loading: Set<Promise<unknown>> = (g[KEY] ??= new Set());

/** Counts `job` as under way until it settles. */
export function trackLoad(job: Promise<unknown>): void {
  loading.add(job);
  void job.finally(() => loading.delete(job)).catch(() => undefined);
}

/** Waits for the loads under way, at most `maxMs`; true when none is left. */
export async function snapshotLoadsSettled(maxMs: number): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  // A load may be joined by another (the shared snapshots after the disk's): wait until none is left.
  while (loading.size > 0 && Date.now() < deadline) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now()))));
    await Promise.race([Promise.allSettled([...loading]), timeout]);
    clearTimeout(timer);
  }
  return loading.size === 0;
}
