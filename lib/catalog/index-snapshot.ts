// Catalog snapshots on disk, so that a restarted console (or a new container in the same pod)
// serves OperatorHub at once instead of reading every registry again: a big catalog's read takes
// seconds of CPU, and with per-user tokens the first person after a start waited for it. One
// gzipped file per catalog, named by a hash of `namespace/name`, holding which read it is (the
// CatalogSource's registry address and content version, when it was read), the tiles, and the
// graph as FBC without CSV metadata (the details pages ask the registry for whole CSVs anyway).
// Written after each good read (to a temporary name, then renamed, so a reader never sees half a
// file); read back once at start, as untrusted input (snapshot-format.ts). A snapshot is only
// ever served after a person's own CatalogSource read shows the same address and version.
import { createHash } from 'node:crypto';
import { mkdir, open, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { catalogFromBlobs, type Catalog } from '../olm/fbc/catalog';
import { parseFbcText } from '../olm/fbc/parse';
import { PROPERTY_BUNDLE_OBJECT, PROPERTY_CSV_METADATA, type DeclarativeConfig } from '../olm/fbc/types';
import { logger } from '../observability/logger';
import type { PackageSummary } from './package-summary';
import {
  MAX_SNAPSHOT_FILE_BYTES,
  MAX_SNAPSHOT_TEXT_BYTES,
  SNAPSHOT_FORMAT,
  SnapshotHeader,
  SnapshotSummaries,
} from './snapshot-format';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);
/** Files looked at in the folder: a catalog each; more than any cluster has. */
const MAX_SNAPSHOT_FILES = 256;
const SUFFIX = '.catalog.gz';

/** A read of one catalog as a snapshot holds it. */
export interface Snapshot {
  key: string;
  address: string;
  version: string;
  fetchedAt: number;
  freshForMs: number;
  bytes: number;
  catalog: Catalog;
  summaries: PackageSummary[];
}

/** The file of catalog `namespace/name`: hashed, so no catalog name becomes a path. */
function fileOf(dir: string, key: string): string {
  return join(dir, createHash('sha256').update(key).digest('hex').slice(0, 32) + SUFFIX);
}

/**
 * The graph without the bulk a snapshot need not hold: CSV metadata and bundle objects (most of
 * a catalog's bytes). The blobs are copied, not changed: the live model shares them.
 */
function slimConfig(config: DeclarativeConfig): string {
  const lines: string[] = [];
  const push = (blob: unknown) => lines.push(JSON.stringify(blob));
  config.packages.forEach(push);
  config.channels.forEach(push);
  for (const b of config.bundles) {
    const properties = (b.properties ?? []).filter(
      (p) => p.type !== PROPERTY_CSV_METADATA && p.type !== PROPERTY_BUNDLE_OBJECT,
    );
    push({ ...b, properties });
  }
  config.deprecations.forEach(push);
  return lines.join('\n');
}

/** A catalog's read as snapshot bytes (gzipped): what the disk and the replicas' shared carrier hold. */
export async function encodeSnapshot(
  header: Omit<SnapshotHeader, 'format' | 'packages'>,
  summaries: readonly PackageSummary[],
  config: DeclarativeConfig,
): Promise<Buffer> {
  const head: SnapshotHeader = { format: SNAPSHOT_FORMAT, ...header, packages: summaries.length };
  const text = `${JSON.stringify(head)}\n${JSON.stringify(summaries)}\n${slimConfig(config)}`;
  const data = await gzipAsync(text);
  if (data.length > MAX_SNAPSHOT_FILE_BYTES) throw new Error(`${data.length} bytes, over the limit`);
  return data;
}

/** Writes one catalog's snapshot file; a failure is logged, never a request's problem. */
export async function writeSnapshotFile(dir: string, key: string, data: Buffer): Promise<void> {
  const file = fileOf(dir, key);
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(tmp, data, { mode: 0o600 });
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    logger().warn({ catalog: key, dir, err: (err as Error).message }, 'catalog snapshot: not written');
  }
}

/** Reads at most `max` bytes of a file; more is an error (the ClusterCatalog content snapshots read theirs so too). */
export async function readBounded(path: string, max: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const { size } = await fh.stat();
    if (size > max) throw new Error(`${size} bytes, over the ${max}-byte limit`);
    const buf = Buffer.alloc(size);
    await fh.read(buf, 0, size, 0);
    return buf;
  } finally {
    await fh.close();
  }
}

/** One snapshot file, checked; throws with the reason when it cannot be trusted. */
export async function loadSnapshot(path: string): Promise<Snapshot> {
  return decodeSnapshot(await readBounded(path, MAX_SNAPSHOT_FILE_BYTES));
}

/** Snapshot bytes (from a file or the shared carrier), checked; throws with the reason when untrusted. */
export async function decodeSnapshot(gz: Buffer): Promise<Snapshot> {
  if (gz.length > MAX_SNAPSHOT_FILE_BYTES) throw new Error(`${gz.length} bytes, over the limit`);
  const text = (await gunzipAsync(gz, { maxOutputLength: MAX_SNAPSHOT_TEXT_BYTES })).toString('utf8');
  const first = text.indexOf('\n');
  const second = first < 0 ? -1 : text.indexOf('\n', first + 1);
  if (second < 0) throw new Error('not a catalog snapshot');
  const header = SnapshotHeader.parse(JSON.parse(text.slice(0, first)));
  const summaries = SnapshotSummaries.parse(JSON.parse(text.slice(first + 1, second))) as PackageSummary[];
  const parsed = parseFbcText('snapshot.json', text.slice(second + 1));
  if (parsed.problems.length) throw new Error(parsed.problems[0]!.message);
  const catalog = catalogFromBlobs(parsed.blobs);
  // The tiles must be the catalog's own: the packages it holds, and this catalog's name on each.
  const slash = header.key.indexOf('/');
  const [namespace, name] = [header.key.slice(0, slash), header.key.slice(slash + 1)];
  const names = new Set(summaries.map((s) => s.name));
  const matches =
    summaries.length === header.packages &&
    names.size === catalog.packages.size &&
    [...catalog.packages.keys()].every((n) => names.has(n)) &&
    summaries.every((s) => s.catalog.namespace === namespace && s.catalog.name === name);
  if (!matches) throw new Error("its tiles are not its catalog's packages");
  return { ...header, catalog, summaries };
}

/** Every snapshot in `dir` that passes its checks; the others are logged and removed. */
export async function loadSnapshots(dir: string): Promise<Snapshot[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith(SUFFIX)).slice(0, MAX_SNAPSHOT_FILES);
  } catch {
    return []; // No folder yet: nothing was written.
  }
  const out: Snapshot[] = [];
  for (const n of names) {
    const path = join(dir, n);
    try {
      const snap = await loadSnapshot(path);
      if (fileOf(dir, snap.key) !== path) throw new Error('its name is not its catalog');
      out.push(snap);
    } catch (err) {
      logger().warn({ file: path, err: (err as Error).message }, 'catalog snapshot: ignored and removed');
      await rm(path, { force: true }).catch(() => undefined);
    }
  }
  return out;
}
