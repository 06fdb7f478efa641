// Bundles already read, by the digest of the image that holds them: a digest names its content
// for ever, so a bundle read once is never pulled again. In memory (a few, per process: Next.js
// loads this module once per route bundle, so the state is on globalThis; bounded by size), and on
// disk in the
// console's snapshot folder (`<OLM_CONSOLE_CATALOG_SNAPSHOT_DIR>/bundle-images/`), one file per
// digest, written to a temporary name and renamed, so a reader never sees half a file and two
// replicas sharing a folder write the same bytes. The folder is bounded: past its size the files
// read longest ago go (a read touches its file). Only a bundle read whole is kept; a refused image
// leaves nothing. Files are read back as untrusted input, through a strict schema and size limit.
// Each bundle records how it was read: anonymously, or with which pull secrets (namespace, name,
// uid). A bundle is content-addressed, but the right to read it is not: the kubelet served an
// image pulled with one pod's secret to any pod on the node (IfNotPresent) until Kubernetes'
// KubeletEnsureSecretPulledImages (KEP-2535) made it check that a later pod has the same secret
// (by namespace, name and uid) or can pull the image itself. bundle-image.ts keeps that rule with
// this record; a later read with other credentials adds them to it. With shared snapshots on, a
// bundle also goes to the replicas' shared store, with its record (shared-bundles.ts), and a
// bundle in neither memory nor the folder is looked for there.
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { logger } from '../../observability/logger';
import { sharedBundleText, shareBundle } from './shared-bundles';

const FORMAT = 'olm-console.bundle-image/v2';
/** Bundles kept in memory, by their text's length: a few dozen of a published bundle's size. */
const MEMORY_BYTES = 32 * 1024 * 1024;
const MAX_FILE_BYTES = 64 * 1024 * 1024;

const CachedBundle = z.strictObject({
  format: z.literal(FORMAT),
  digest: z.string().regex(/^sha256:[a-f0-9]{64}$/),
  files: z.record(z.string().max(4096), z.string()),
  readWith: z.strictObject({
    anonymous: z.boolean(),
    secrets: z
      .array(z.strictObject({ namespace: z.string().max(63), name: z.string().max(253), uid: z.string().max(64) }))
      .max(64),
  }),
});

export type BundleFiles = ReadonlyMap<string, string>;

/** How a cached bundle was read: anonymously, or with these secrets. */
export interface ReadWith {
  anonymous: boolean;
  secrets: { namespace: string; name: string; uid: string }[];
}

export interface CachedBundle {
  files: BundleFiles;
  readWith: ReadWith;
}

/** Both records in one: anonymous if either was; the secrets of both, each once. */
function merged(a: ReadWith | undefined, b: ReadWith): ReadWith {
  if (!a) return b;
  const secrets = [...a.secrets];
  for (const s of b.secrets)
    if (!secrets.some((o) => o.namespace === s.namespace && o.name === s.name && o.uid === s.uid)) secrets.push(s);
  return { anonymous: a.anonymous || b.anonymous, secrets: secrets.slice(-64) };
}

interface State {
  memory: Map<string, CachedBundle>;
  sizes: Map<string, number>;
  bytes: number;
}
const STATE = Symbol.for('olm-console.bundle-image-cache');
const g = globalThis as { [STATE]?: State };
const state: State = (g[STATE] ??= { memory: new Map(), sizes: new Map(), bytes: 0 });

const fileOf = (dir: string, digest: string) => join(dir, `${digest.replace(':', '-')}.json`);

function forget(digest: string): void {
  state.bytes -= state.sizes.get(digest) ?? 0;
  state.sizes.delete(digest);
  state.memory.delete(digest);
}

/** Keeps `files` in memory, most recent last, the least recent going past the bound. */
function remember(digest: string, bundle: CachedBundle): void {
  forget(digest);
  let size = 0;
  for (const [p, t] of bundle.files) size += p.length + t.length;
  if (size > MEMORY_BYTES) return;
  state.memory.set(digest, bundle);
  state.sizes.set(digest, size);
  state.bytes += size;
  while (state.bytes > MEMORY_BYTES) forget(state.memory.keys().next().value!);
}

/** A cached bundle's record as a file or a shared copy holds it. */
export function bundleRecord(digest: string, bundle: CachedBundle): string {
  return JSON.stringify({ format: FORMAT, digest, files: Object.fromEntries(bundle.files), readWith: bundle.readWith });
}

/** The bundle a record holds, if it is one this console writes and of `digest`; untrusted input. */
export function parseBundleRecord(text: string, digest: string): CachedBundle | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = CachedBundle.safeParse(json);
  if (!parsed.success || parsed.data.digest !== digest) return undefined;
  return { files: new Map(Object.entries(parsed.data.files)), readWith: parsed.data.readWith };
}

/** The bundle cached for `digest`, from memory, the folder or the replicas' shared store, if any. */
export async function cachedBundle(digest: string, dir: string | undefined): Promise<CachedBundle | undefined> {
  const hit = state.memory.get(digest);
  if (hit) {
    remember(digest, hit);
    return hit;
  }
  const onDisk = dir ? await fromFolder(dir, digest) : undefined;
  const shared = onDisk ? undefined : await sharedBundleText(digest);
  const bundle = onDisk ?? (shared === undefined ? undefined : parseBundleRecord(shared, digest));
  if (bundle) remember(digest, bundle);
  return bundle;
}

async function fromFolder(dir: string, digest: string): Promise<CachedBundle | undefined> {
  const file = fileOf(dir, digest);
  try {
    if ((await stat(file)).size > MAX_FILE_BYTES) return undefined;
    const bundle = parseBundleRecord(await readFile(file, 'utf8'), digest);
    if (!bundle) {
      await rm(file, { force: true });
      return undefined;
    }
    const now = new Date();
    await utimes(file, now, now).catch(() => undefined);
    return bundle;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      logger().warn({ file, err: (err as Error).message }, 'bundle image cache: not read');
    return undefined;
  }
}

/** Keeps a bundle read whole, with how it was read added to any record of it, then trims the folder. */
export async function keepBundle(
  digest: string,
  files: BundleFiles,
  how: ReadWith,
  dir: string | undefined,
  maxBytes: number,
): Promise<void> {
  const readWith = merged(state.memory.get(digest)?.readWith, how);
  remember(digest, { files, readWith });
  const record = bundleRecord(digest, { files, readWith });
  await shareBundle(digest, record, readWith);
  if (!dir) return;
  const file = fileOf(dir, digest);
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    await writeFile(tmp, record, { mode: 0o600 });
    await rename(tmp, file);
    await trim(dir, maxBytes);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    logger().warn({ dir, err: (err as Error).message }, 'bundle image cache: not written');
  }
}

async function trim(dir: string, maxBytes: number): Promise<void> {
  const names = (await readdir(dir)).filter((n) => /^sha256-[a-f0-9]{64}\.json$/.test(n));
  const files = await Promise.all(
    names.map(async (n) => {
      const s = await stat(join(dir, n)).catch(() => undefined);
      return { n, size: s?.size ?? 0, at: s?.mtimeMs ?? 0 };
    }),
  );
  let total = files.reduce((a, f) => a + f.size, 0);
  for (const f of files.sort((a, b) => a.at - b.at)) {
    if (total <= maxBytes) break;
    await rm(join(dir, f.n), { force: true });
    total -= f.size;
  }
}

/** Forgets what is held in memory (tests reading the folder again). */
export function forgetBundlesInMemory(): void {
  state.memory.clear();
  state.sizes.clear();
  state.bytes = 0;
}
