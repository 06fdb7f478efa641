// Snapshot writes still under way in this process (catalog index snapshots, ClusterCatalog content;
// to disk and to the replicas' ConfigMaps), so that a graceful stop can wait for them
// (lib/server/http/unfinished-writes.ts). One set per process, on globalThis: the server and each
// route bundle may hold their own copy of this module.
const KEY = Symbol.for('olm-console.background-writes');
const g = globalThis as { [KEY]?: Set<Promise<unknown>> };
const writing: Set<Promise<unknown>> = (g[KEY] ??= new Set());

/** Counts `job` as under way until it settles; answers it. */
export function trackWrite<T>(job: Promise<T>): Promise<T> {
  writing.add(job);
  void job.finally(() => writing.delete(job)).catch(() => undefined);
  return job;
}

/** Waits for the writes under way, at most `maxMs`; true when none is left. */
export async function backgroundWritesSettled(maxMs: number): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  // Writes may start others (a disk write, then the shared one): wait until none is left.
  while (writing.size > 0 && Date.now() < deadline) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, deadline - Date.now()))));
    await Promise.race([Promise.allSettled([...writing]), timeout]);
    clearTimeout(timer);
  }
  return writing.size === 0;
}
