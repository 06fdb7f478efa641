// ClusterCatalog content on disk, so that a restarted console does not download every catalog again
// before its first OperatorHub answer: catalogd's content of an OpenShift-sized catalog is tens of
// megabytes, and the hub waits for it (hub-packages.ts) or answers without it. One gzipped file per
// content address (`status.urls.base`), named by its hash, holding which content it is (the address,
// the digest it was resolved to, when it was unpacked) and catalogd's answer byte for byte; or, for
// content refused for itself (over the size limit, a line that is not JSON), only why, so that a
// restart does not download it again to refuse it again. The folder is the v0 catalog snapshots'
// (lib/catalog/index-snapshot.ts). Read back once at start as untrusted input: the header through a
// strict schema, the content through the same reader and limits as an answer from catalogd. A
// snapshot is only served when a person's own list shows the ClusterCatalog at the same address,
// digest and unpack time (content-cache.ts), and that address is catalogd's as the console was told
// (catalogd-address.ts): a snapshot of any other address is never read back into an answer.
import { createHash } from 'node:crypto';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createGzip, gunzip, gzipSync } from 'node:zlib';
import { z } from 'zod';
import { readBounded } from '../../catalog/index-snapshot';
import { logger } from '../../observability/logger';
import { MAX_CONTENT_BYTES, parseCatalogContent, unreadContent, type ContentIndex } from './catalog-content';

const gunzipAsync = promisify(gunzip);
const FORMAT = 'olm-console.clustercatalog-content/v1';
/** Not `.catalog.gz`: that is the v0 snapshots' suffix, and their loader removes what it cannot read. */
const SUFFIX = '.v1content.gz';
/** The largest file read: catalogd's content gzips about tenfold, and is at most MAX_CONTENT_BYTES. */
export const MAX_CONTENT_SNAPSHOT_BYTES = 32 * 1024 * 1024;
/** Files looked at: as many as the content cache keeps. */
const MAX_FILES = 64;

const ContentSnapshotHeader = z.strictObject({
  format: z.literal(FORMAT),
  base: z.string().max(2048),
  resolvedRef: z.string().max(1024),
  lastUnpacked: z.string().max(64),
  savedAt: z.number().int().nonnegative(),
  refused: z.string().max(2048).optional(),
});
type ContentSnapshotHeader = z.infer<typeof ContentSnapshotHeader>;

/** Which content a snapshot holds: the content cache's key. */
export interface ContentIdentity {
  base: string;
  resolvedRef: string;
  lastUnpacked: string;
}

export interface ContentSnapshot extends ContentIdentity {
  index: ContentIndex;
}

function fileOf(dir: string, base: string): string {
  return join(dir, createHash('sha256').update(base).digest('hex').slice(0, 32) + SUFFIX);
}

async function writeAtomically(dir: string, base: string, data: Buffer): Promise<void> {
  const file = fileOf(dir, base);
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    logger().warn({ base, dir, err: (err as Error).message }, 'catalog content snapshot: not written');
  }
}

function headerMember(id: ContentIdentity, refused?: string): Buffer {
  const header: ContentSnapshotHeader = { format: FORMAT, ...id, savedAt: Date.now(), ...(refused ? { refused } : {}) };
  return gzipSync(`${JSON.stringify(header)}\n`);
}

/**
 * Gzips an answer while it is read (only the compressed bytes are held), for `save` once the whole
 * answer has been read and accepted. An answer that turns out larger than a snapshot may be is
 * dropped, never cut short.
 */
export class ContentSnapshotWriter {
  private readonly gzip = createGzip();
  private readonly parts: Buffer[] = [];
  private size = 0;
  private tooLarge = false;
  private readonly done: Promise<void>;

  constructor() {
    this.gzip.on('data', (b: Buffer) => {
      this.size += b.length;
      if (this.size > MAX_CONTENT_SNAPSHOT_BYTES) this.tooLarge = true;
      else this.parts.push(b);
    });
    this.done = new Promise((resolve, reject) => {
      this.gzip.once('end', resolve);
      this.gzip.once('error', reject);
    });
  }

  push(chunk: Buffer): void {
    if (!this.tooLarge) this.gzip.write(chunk);
  }

  /**
   * Writes the snapshot of the content read (to `dir` if given) and answers its bytes, for the
   * replicas' shared snapshots; a failure is logged, never the reader's problem.
   */
  async save(dir: string | undefined, id: ContentIdentity): Promise<Buffer | undefined> {
    this.gzip.end();
    try {
      await this.done;
    } catch (err) {
      logger().warn({ base: id.base, err: (err as Error).message }, 'catalog content snapshot: not written');
      return undefined;
    }
    if (this.tooLarge) return undefined;
    const data = Buffer.concat([headerMember(id), ...this.parts]);
    if (dir) await writeAtomically(dir, id.base, data);
    return data;
  }

  /** The answer was not accepted: nothing is written. */
  discard(): void {
    this.gzip.destroy();
  }
}

/** The snapshot of content refused for itself: only why. */
export function refusalSnapshot(id: ContentIdentity, why: string): Buffer {
  return headerMember(id, why.slice(0, 2048));
}

/** Keeps why this content was refused, so that a restart does not download it to refuse it again. */
export function saveRefusal(dir: string, id: ContentIdentity, why: string): Promise<void> {
  return writeAtomically(dir, id.base, refusalSnapshot(id, why));
}

/** One snapshot, checked; throws with the reason when it cannot be trusted. */
export async function loadContentSnapshot(dir: string, name: string): Promise<ContentSnapshot> {
  const path = join(dir, name);
  const snap = await decodeContentSnapshot(await readBounded(path, MAX_CONTENT_SNAPSHOT_BYTES));
  if (fileOf(dir, snap.base) !== path) throw new Error('its name is not its address');
  return snap;
}

/** Snapshot bytes (a file's, or the replicas' shared ones), checked; throws with the reason when untrusted. */
export async function decodeContentSnapshot(gz: Buffer): Promise<ContentSnapshot> {
  if (gz.length > MAX_CONTENT_SNAPSHOT_BYTES) throw new Error(`${gz.length} bytes, over the limit`);
  // The header line and the content: at most one header's worth more than the content's limit.
  const text = await gunzipAsync(gz, { maxOutputLength: MAX_CONTENT_BYTES + 8192 });
  const newline = text.indexOf(10);
  if (newline < 0) throw new Error('not a catalog content snapshot');
  const { base, resolvedRef, lastUnpacked, refused } = ContentSnapshotHeader.parse(
    JSON.parse(text.subarray(0, newline).toString('utf8')),
  );
  const index = refused ? unreadContent(refused) : parseCatalogContent(text.subarray(newline + 1));
  return { base, resolvedRef, lastUnpacked, index };
}

/** Every snapshot in `dir` that passes its checks; the others are logged and removed. */
export async function loadContentSnapshots(dir: string): Promise<ContentSnapshot[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(SUFFIX)).slice(0, MAX_FILES);
  } catch {
    return []; // No folder yet: nothing was written.
  }
  const out: ContentSnapshot[] = [];
  for (const name of names) {
    try {
      out.push(await loadContentSnapshot(dir, name));
    } catch (err) {
      const file = join(dir, name);
      logger().warn({ file, err: (err as Error).message }, 'catalog content snapshot: ignored and removed');
      await rm(file, { force: true }).catch(() => undefined);
    }
  }
  return out;
}
