// The content already read, by what identifies it: the address, the digest it was resolved to and
// when it was unpacked. A live page reads the list again on every change of any catalog; without
// this each read would download every catalog again. A failure to reach the content server is kept
// only briefly, so a server that comes back is read again soon; content refused for itself (over the
// size limit, a line that is not JSON) is kept like content read, until the digest changes, since
// reading it again would download it again to refuse it again. Both are also kept on disk where
// the console has a snapshot folder (content-snapshot.ts), so a restart starts with them, and shared
// with the other replicas where the deployment asks for it (lib/catalog/shared-snapshots.ts), so a
// new replica does too.
import type { KubeConfig } from '@kubernetes/client-node';
import {
  ContentError,
  ContentUnavailable,
  fetchCatalogContent,
  unreadContent,
  type ContentIndex,
} from './catalog-content';
import { trackWrite } from '../../catalog/background-writes';
import { snapshotIdOf, type SharedSnapshots } from '../../catalog/shared-snapshots';
import { logger } from '../../observability/logger';
import {
  ContentSnapshotWriter,
  decodeContentSnapshot,
  loadContentSnapshots,
  refusalSnapshot,
  saveRefusal,
  type ContentSnapshot,
} from './content-snapshot';

const MAX_ENTRIES = 64;
const FAILURE_TTL_MS = 15_000;
/** How long the first read waits for the replicas' shared content at start. */
const SHARED_RESTORE_MS = 10_000;

interface Entry {
  at: number;
  index: Promise<ContentIndex>;
  failed: boolean;
}

/**
 * The cache's state, one per process: Next.js may load this module once per route bundle, and a copy
 * of its own for each would download and parse every catalog again and hold it in memory again (the
 * OperatorHub page and the list route alone made two).
 */
interface State {
  entries: Map<string, Entry>;
  restoring?: Promise<void>;
  restored: boolean;
  /** The content replicas share, once shareCatalogContent is called. */
  shared?: SharedSnapshots;
}

const STATE = Symbol.for('olm-console.catalog-content-cache');
const g = globalThis as { [STATE]?: State };
const state: State = (g[STATE] ??= { entries: new Map(), restored: false });
const entries = state.entries;

// The home cluster's keys are the ones the snapshots restore; another cluster of the fleet has
// its entries under its name, since catalogd's address and a digest it reports are that
// cluster's word: what one cluster's catalogd served is never given for another's.
const keyOf = (base: string, resolvedRef: string, lastUnpacked: string, cluster?: string) =>
  `${cluster ? `${cluster}\n` : ''}${base}\n${resolvedRef}\n${lastUnpacked}`;

function keep(key: string, entry: Entry): void {
  entries.set(key, entry);
  // Oldest out first: a Map keeps insertion order.
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
}

/** The snapshot folder, where the console keeps one (npm start and the deployment set it). */
const snapshotDir = () => process.env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR || undefined;

/**
 * Loads the content snapshots into the cache, once; the server starts this as it starts
 * (instrumentation.ts), and the first read waits for it rather than download what it holds.
 */
export function restoreCatalogContent(): Promise<void> {
  const dir = snapshotDir();
  if (!dir && !state.shared) state.restored = true;
  if (state.restored) return Promise.resolve();
  const shared = state.shared;
  state.restoring ??= (async () => {
    if (dir) restore(await loadContentSnapshots(dir));
    // The replicas' shared content, checked as a file is; bounded, as the first read waits for it.
    if (shared) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<void>((r) => (timer = setTimeout(r, SHARED_RESTORE_MS)));
      await Promise.race([restoreShared(shared), timeout]);
      clearTimeout(timer);
    }
  })().finally(() => {
    state.restored = true;
  });
  return state.restoring;
}

function restore(snapshots: ContentSnapshot[]): void {
  for (const s of snapshots) {
    const key = keyOf(s.base, s.resolvedRef, s.lastUnpacked);
    if (!entries.has(key)) keep(key, { at: Date.now(), failed: false, index: Promise.resolve(s.index) });
  }
}

async function restoreShared(shared: SharedSnapshots): Promise<void> {
  try {
    for (const id of await shared.ids()) {
      const data = await shared.read(id);
      if (!data) continue;
      try {
        const snap = await decodeContentSnapshot(data);
        if (snapshotIdOf(snap.base) !== id) throw new Error('it is filed under another address');
        restore([snap]);
      } catch (err) {
        logger().warn({ snapshot: id, err: (err as Error).message }, 'shared catalog content snapshot: ignored');
      }
    }
  } catch (err) {
    logger().warn({ err: (err as Error).message }, 'shared catalog content snapshots: not restored');
  }
}

/**
 * Shares content read with the other replicas through `shared` (kind `content`), and starts from
 * what they shared; called before restoreCatalogContent, as the server starts.
 */
export function shareCatalogContent(shared: SharedSnapshots): void {
  state.shared = shared;
}

export function catalogContent(
  kc: KubeConfig,
  base: string,
  resolvedRef: string,
  lastUnpacked: string,
  /** The fleet member read (KubeClient.cluster), undefined for home. */
  cluster?: string,
): Promise<ContentIndex> {
  if (!state.restored) {
    const pending = restoreCatalogContent();
    // Without a snapshot folder there is nothing to wait for, and the answer is the cached promise itself.
    if (!state.restored) return pending.then(() => catalogContent(kc, base, resolvedRef, lastUnpacked, cluster));
  }
  const key = keyOf(base, resolvedRef, lastUnpacked, cluster);
  const hit = entries.get(key);
  if (hit && !(hit.failed && Date.now() - hit.at > FAILURE_TTL_MS)) return hit.index;
  const entry: Entry = {
    at: Date.now(),
    failed: false,
    index: Promise.resolve(unreadContent('')),
  };
  // Snapshots are the home cluster's: another cluster's content is kept in memory only.
  const dir = cluster ? undefined : snapshotDir();
  const shared = cluster ? undefined : state.shared;
  const writer = dir || shared ? new ContentSnapshotWriter() : undefined;
  const id = { base, resolvedRef, lastUnpacked };
  const version = `${resolvedRef}|${lastUnpacked}`;
  entry.index = fetchCatalogContent(kc, base, writer && ((chunk) => writer.push(chunk))).then(
    (index) => {
      if (writer)
        void writer
          .save(dir, id)
          .then((data) => (data && shared ? shared.write(base, base, version, data) : undefined));
      return index;
    },
    (err: unknown): ContentIndex => {
      writer?.discard();
      entry.failed = !(err instanceof ContentError) || err instanceof ContentUnavailable;
      entry.at = Date.now();
      const why = err instanceof ContentError ? err.message : `reading the content failed: ${(err as Error).message}`;
      if (dir && !entry.failed) void trackWrite(saveRefusal(dir, id, why));
      if (shared && !entry.failed) void trackWrite(shared.write(base, base, version, refusalSnapshot(id, why)));
      return unreadContent(why);
    },
  );
  keep(key, entry);
  return entry.index;
}
