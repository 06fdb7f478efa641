// What a graceful stop waits for after the last request: the catalog snapshots still being
// written. A snapshot is written in the background once a read is done (seconds for a big
// catalog: gzip, the disk, the replicas' ConfigMaps), so a console stopped right after its first
// read used to restart without it and read every registry again. The wait is bounded: a stop
// never hangs on a slow disk or API server.
import type { Logger } from 'pino';
import { backgroundWritesSettled } from '../../catalog/background-writes';

/** The longest a stop waits for snapshots, within what is left of its grace. */
export const SNAPSHOT_WRITE_WAIT_MS = 10_000;

/** Waits for the process's snapshot writes (catalog index and ClusterCatalog content), at most `maxMs`. */
export async function finishSnapshotWrites(log: Logger, maxMs: number): Promise<void> {
  const started = performance.now();
  const done = await backgroundWritesSettled(Math.max(0, Math.min(maxMs, SNAPSHOT_WRITE_WAIT_MS)));
  const waitedMs = Math.round(performance.now() - started);
  if (!done) log.warn({ waitedMs }, 'stopping with a catalog snapshot unwritten after the wait');
  else if (waitedMs > 0) log.info({ waitedMs }, 'catalog snapshots written before stopping');
}
