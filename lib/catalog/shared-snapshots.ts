// The catalog snapshots every replica shares, so that a new pod (a rollout, a scale-up, a
// rescheduled replica) starts from what any replica read last instead of reading each registry
// again. They live in ConfigMaps of the console's own namespace, written and read with the
// console's own identity only, and are claimed exactly as a snapshot on disk is (catalog-entries.ts:
// only through a person's own CatalogSource read, same address and content version).
//
//   olm-console-catalog-snapshots              the manifest: `c.<id>` → a sealed entry per catalog
//                                              (`v.<id>` per ClusterCatalog content, its own kind;
//                                              `b.<id>` per bundle image, lib/server/bundle-images/
//                                              shared-bundles.ts, counted apart from the catalogs)
//   olm-console-catalog-snapshot-<id>-<gen>-<n>  its chunks (binaryData), written once, never changed
//
// A snapshot is encrypted and authenticated with a key derived from the session key every replica
// shares (AES-256-GCM), and its manifest entry carries an HMAC: a replica with another key, or an
// entry or chunk changed by anyone who may write ConfigMaps there, is ignored with a log line.
// Replacement is atomic: new chunks under a new generation, then the manifest swapped at the
// resourceVersion read (a conflict means another replica wrote: read again, the last to complete
// wins), then the old chunks deleted. A reader that finds a chunk gone reads the manifest again,
// so it assembles one generation or nothing. What is written is bounded, in all and per catalog.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { z } from 'zod';
import type { KubeClient } from '../k8s/client';
import { CONFIG_MAP_TYPE } from '../k8s/core-kinds';
import { isKubeError } from '../k8s/errors';
import { logger } from '../observability/logger';

export const SNAPSHOTS_CONFIGMAP = 'olm-console-catalog-snapshots';
const CHUNK_PREFIX = 'olm-console-catalog-snapshot-';
export const CHUNK_LABEL = 'olm-console.io/catalog-snapshot-chunk';
/**
 * A chunk's bytes: the API server refuses a ConfigMap whose data exceed 1 MiB (binaryData counted
 * raw), and the JSON of a write carries them in base64; 768 KiB leaves room for both.
 */
export const CHUNK_BYTES = 768 * 1024;
/** All shared snapshots together, and so also one catalog's: 1,180 packages are about 0.5 MB. */
export const DEFAULT_MAX_SHARED_BYTES = 12 * 1024 * 1024;
/** Catalogs in the manifest: more than any cluster has (OpenShift has four by default). */
const MAX_ENTRIES = 64;
/** Bundle images in the manifest: their own count and bytes, so they never crowd out a catalog. */
const MAX_BUNDLE_ENTRIES = 32;
const BUNDLE = 'b.';
/** A writer whose chunks are older than this and unnamed by the manifest has died: they go. */
const ORPHAN_AGE_MS = 10 * 60_000;
/** How long a write keeps retrying conflicts with other replicas before it gives up (logged). */
const WRITE_DEADLINE_MS = 15_000;
/** A shared snapshot of the same content younger than this is not written again. */
const REWRITE_AFTER_MS = 30 * 60_000;

const SEAL_LABEL = 'olm-console.io/catalog-snapshot seal v1';
const ENTRY_LABEL = 'olm-console.io/catalog-snapshot entry v1';
const TAG_LABEL = 'olm-console.io/catalog-snapshot content v1';

interface ConfigMap {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string; creationTimestamp?: string };
  data?: Record<string, string>;
  binaryData?: Record<string, string>;
}

const FIELD = /^[cvb]\.[0-9a-f]{16}$/;
const CHUNK_NAME = /^olm-console-catalog-snapshot-([0-9a-f]{16})-[0-9a-f]{8}-\d{1,3}$/;
const b64url = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);

/** One catalog's entry in the manifest, checked strictly before anything it names is read. */
const Entry = z.strictObject({
  at: z.number().int().nonnegative(),
  size: z.number().int().positive(),
  iv: b64url,
  tag: b64url,
  chunks: z
    .array(z.tuple([z.string().regex(CHUNK_NAME), z.string().regex(/^[0-9a-f]{64}$/)]))
    .min(1)
    .max(64),
  mac: b64url,
});
type Entry = z.infer<typeof Entry>;

/** The manifest key and chunk id of the catalog `namespace/name`: hashed, so no catalog name becomes a name. */
export function snapshotIdOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 16);
}

/** The entries a manifest's data holds: at most MAX_ENTRIES `c.<id>` and `v.<id>`, MAX_BUNDLE_ENTRIES `b.<id>`. */
function fieldsIn(data: Record<string, string>): string[] {
  const fields = Object.keys(data).filter((k) => FIELD.test(k));
  return [
    ...fields.filter((k) => !k.startsWith(BUNDLE)).slice(0, MAX_ENTRIES),
    ...fields.filter((k) => k.startsWith(BUNDLE)).slice(0, MAX_BUNDLE_ENTRIES),
  ];
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface SharedSnapshotOptions {
  /** The most bytes shared in all (tests lower it). */
  maxBytes?: number;
  /** The most bytes a chunk holds (tests lower it, to have several). */
  chunkBytes?: number;
  /** What is shared: catalog index snapshots (the default), ClusterCatalog content, or bundle images. */
  kind?: 'catalog' | 'content' | 'bundle';
  /** How old a chunk no entry names must be before it is collected (tests lower it). */
  orphanAgeMs?: number;
}

export class SharedSnapshots {
  private readonly sealKey: Buffer;
  private readonly macKey: Buffer;
  private readonly tagKey: Buffer;
  private readonly maxBytes: number;
  private readonly chunkBytes: number;
  /** This kind's entries in the manifest: `c.`, `v.` or `b.`. */
  private readonly prefix: string;
  private readonly orphanAgeMs: number;

  constructor(
    private readonly client: KubeClient,
    readonly namespace: string,
    /** The session key every replica shares (OLM_CONSOLE_SESSION_KEY): the seals are derived from it. */
    sessionKey: Buffer,
    opts: SharedSnapshotOptions = {},
  ) {
    // HKDF with labels of their own: no seal here is worth anything as a cookie or an upgrade target.
    const derive = (label: string) => Buffer.from(hkdfSync('sha256', sessionKey, Buffer.alloc(0), label, 32));
    this.sealKey = derive(SEAL_LABEL);
    this.macKey = derive(ENTRY_LABEL);
    this.tagKey = derive(TAG_LABEL);
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_SHARED_BYTES;
    this.chunkBytes = Math.min(opts.chunkBytes ?? CHUNK_BYTES, CHUNK_BYTES);
    this.prefix = opts.kind === 'content' ? 'v.' : opts.kind === 'bundle' ? BUNDLE : 'c.';
    this.orphanAgeMs = opts.orphanAgeMs ?? ORPHAN_AGE_MS;
  }

  private entryMac(field: string, e: Omit<Entry, 'mac'>): string {
    const parts = [ENTRY_LABEL, field, e.at, e.size, e.iv, e.tag, e.chunks];
    return createHmac('sha256', this.macKey).update(JSON.stringify(parts)).digest('base64url');
  }

  /** Names the content (address and version) without telling it to whoever reads the manifest. */
  private contentTag(key: string, address: string, version: string): string {
    return createHmac('sha256', this.tagKey)
      .update(JSON.stringify([key, address, version]))
      .digest('base64url');
  }

  /** The entry `field` (`c.<id>`), if it parses and carries this console's seal; else why not. */
  private entryOf(data: Record<string, string>, field: string): Entry | string | undefined {
    const raw = data[field];
    if (raw === undefined) return undefined;
    let e: Entry;
    try {
      e = Entry.parse(JSON.parse(raw));
    } catch {
      return 'its manifest entry is not one the console writes';
    }
    const { mac, ...rest } = e;
    const want = Buffer.from(this.entryMac(field, rest));
    const given = Buffer.from(mac);
    if (given.length !== want.length || !timingSafeEqual(given, want))
      return 'its manifest entry is sealed with another session key, or was changed';
    if (e.chunks.some(([name]) => CHUNK_NAME.exec(name)?.[1] !== field.slice(2))) return 'its chunks are not its own';
    return e;
  }

  private async manifest(): Promise<ConfigMap | undefined> {
    try {
      return await this.client.get<ConfigMap>(CONFIG_MAP_TYPE, SNAPSHOTS_CONFIGMAP, this.namespace);
    } catch (err) {
      if (isKubeError(err, 404)) return undefined;
      throw err;
    }
  }

  /** The ids of this kind's snapshots shared now. */
  async ids(): Promise<string[]> {
    const fields = fieldsIn((await this.manifest())?.data ?? {});
    return fields.filter((f) => f.startsWith(this.prefix)).map((f) => f.slice(2));
  }

  /**
   * The snapshot bytes shared under `id` (as index-snapshot.ts encodes them, still to be checked by
   * its decoder), or undefined with a log line saying why not. Chunks are read for one manifest
   * entry: one gone means the entry was replaced meanwhile, so the manifest is read again.
   */
  async read(id: string): Promise<Buffer | undefined> {
    const why = (reason: string) => {
      logger().warn({ snapshot: id, namespace: this.namespace, reason }, 'shared catalog snapshot: ignored');
      return undefined;
    };
    const field = `${this.prefix}${id}`;
    try {
      for (let attempt = 0; attempt < 3; attempt++) {
        const entry = this.entryOf((await this.manifest())?.data ?? {}, field);
        if (entry === undefined) return undefined;
        if (typeof entry === 'string') return why(entry);
        const parts: Buffer[] = [];
        let gone = false;
        for (const [name, digest] of entry.chunks) {
          let cm: ConfigMap;
          try {
            cm = await this.client.get<ConfigMap>(CONFIG_MAP_TYPE, name, this.namespace);
          } catch (err) {
            if (!isKubeError(err, 404)) throw err;
            gone = true;
            break;
          }
          const b64 = cm.binaryData?.chunk ?? '';
          if (b64.length > Math.ceil(CHUNK_BYTES / 3) * 4) return why(`chunk ${name} is over the chunk size`);
          const part = Buffer.from(b64, 'base64');
          if (sha256(part) !== digest) return why(`chunk ${name} does not match its digest`);
          parts.push(part);
        }
        if (gone) {
          // Replaced while it was read (the old chunks go after the swap), or a chunk was deleted.
          const now = this.entryOf((await this.manifest())?.data ?? {}, field);
          if (typeof now === 'object' && now.mac !== entry.mac) continue;
          return why('a chunk it names is missing');
        }
        const sealed = Buffer.concat(parts);
        if (sealed.length !== entry.size || sealed.length < 17) return why('its chunks are not its size');
        try {
          const d = createDecipheriv('aes-256-gcm', this.sealKey, Buffer.from(entry.iv, 'base64url'));
          d.setAAD(Buffer.from(`${field}.${entry.at}`));
          d.setAuthTag(sealed.subarray(sealed.length - 16));
          return Buffer.concat([d.update(sealed.subarray(0, sealed.length - 16)), d.final()]);
        } catch {
          return why('its seal does not open with this session key');
        }
      }
      return why('it was replaced under each of three reads');
    } catch (err) {
      return why(`the cluster could not be read: ${(err as Error).message}`);
    }
  }

  /**
   * Shares a catalog's snapshot bytes, replacing the one shared before. Never a request's problem:
   * a failure, a catalog too large to share, or a writer that keeps losing is a log line.
   */
  async write(key: string, address: string, version: string, data: Buffer): Promise<void> {
    const id = snapshotIdOf(key);
    const field = `${this.prefix}${id}`;
    const log = (reason: string) =>
      logger().warn({ catalog: key, namespace: this.namespace, reason }, 'shared catalog snapshot: not written');
    const tag = this.contentTag(key, address, version);
    const made: string[] = [];
    try {
      const current = this.entryOf((await this.manifest())?.data ?? {}, field);
      // Another replica shared this content a moment ago: every replica re-reads, one copy will do.
      const recent = typeof current === 'object' && current.tag === tag && Date.now() - current.at < REWRITE_AFTER_MS;
      if (recent) return;
      const at = Date.now();
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', this.sealKey, iv);
      c.setAAD(Buffer.from(`${field}.${at}`));
      const sealed = Buffer.concat([c.update(data), c.final(), c.getAuthTag()]);
      if (sealed.length > this.maxBytes)
        return log(`${sealed.length} bytes, over the ${this.maxBytes} bytes the replicas share; each reads it once`);
      const gen = randomBytes(4).toString('hex');
      const chunks: [string, string][] = [];
      for (let i = 0, n = 0; i < sealed.length; i += this.chunkBytes, n++) {
        const part = sealed.subarray(i, i + this.chunkBytes);
        const name = `${CHUNK_PREFIX}${id}-${gen}-${n}`;
        await this.client.create(CONFIG_MAP_TYPE, {
          kind: 'ConfigMap',
          metadata: {
            name,
            namespace: this.namespace,
            labels: { 'app.kubernetes.io/name': 'olm-console', [CHUNK_LABEL]: id },
          },
          binaryData: { chunk: part.toString('base64') },
        });
        made.push(name);
        chunks.push([name, sha256(part)]);
      }
      const rest = { at, size: sealed.length, iv: iv.toString('base64url'), tag, chunks };
      const entry: Entry = { ...rest, mac: this.entryMac(field, rest) };
      const replaced = await this.swap(field, entry);
      if (typeof replaced === 'string') {
        await this.remove(made);
        return log(replaced);
      }
      made.length = 0;
      // The old generation goes once no manifest names it; only chunks named by a sealed entry of this id.
      if (replaced) await this.remove(replaced.chunks.map(([name]) => name));
      // Written; what a stopped writer left is collected, and a failure here is only that.
      await this.collectOrphans().catch((err: unknown) => {
        logger().warn({ err: (err as Error).message }, 'shared catalog snapshot: chunks left by others not collected');
      });
    } catch (err) {
      await this.remove(made);
      log((err as Error).message);
    }
  }

  /**
   * Puts `entry` in the manifest at the resourceVersion read; on a conflict reads and tries again.
   * Returns the entry it replaced (sealed, of this id), or why it could not.
   */
  private async swap(field: string, entry: Entry): Promise<Entry | undefined | string> {
    const deadline = Date.now() + WRITE_DEADLINE_MS;
    let pause = 20;
    for (;;) {
      const cm = await this.manifest();
      const data = cm?.data ?? {};
      let total = entry.size;
      let count = 1;
      // Bundle images and catalogs are bounded apart: each kind's writer counts its own pool.
      const bundles = this.prefix === BUNDLE;
      for (const other of fieldsIn(data)) {
        if (other === field || other.startsWith(BUNDLE) !== bundles) continue;
        const e = this.entryOf(data, other);
        if (typeof e === 'object') total += e.size;
        count++;
      }
      const what = bundles ? 'bundle images' : 'catalogs';
      if (total > this.maxBytes)
        return `the replicas share at most ${this.maxBytes} bytes, and the other ${what} hold ${total - entry.size}`;
      const most = bundles ? MAX_BUNDLE_ENTRIES : MAX_ENTRIES;
      if (count > most) return `the manifest holds at most ${most} ${what}`;
      const before = this.entryOf(data, field);
      const next = { ...data, [field]: JSON.stringify(entry) };
      try {
        if (cm) await this.client.replace(CONFIG_MAP_TYPE, { ...cm, data: next });
        else
          await this.client.create(CONFIG_MAP_TYPE, {
            kind: 'ConfigMap',
            metadata: {
              name: SNAPSHOTS_CONFIGMAP,
              namespace: this.namespace,
              labels: { 'app.kubernetes.io/name': 'olm-console' },
            },
            data: next,
          });
        return typeof before === 'object' ? before : undefined;
      } catch (err) {
        // A create that lost to another replica's is a 409 too.
        if (!isKubeError(err, 409)) throw err;
        if (Date.now() + pause > deadline) return 'other replicas changed the manifest under each attempt';
        // Jittered: replicas that collided do not collide again in step.
        await sleep(pause * (0.5 + Math.random()));
        pause = Math.min(pause * 2, 1_000);
      }
    }
  }

  /** Deletes chunks (by their own names only); one already gone is fine, another failure logged. */
  private async remove(names: readonly string[]): Promise<void> {
    for (const name of names) {
      if (!CHUNK_NAME.test(name)) continue;
      try {
        await this.client.delete(CONFIG_MAP_TYPE, name, { namespace: this.namespace });
      } catch (err) {
        if (isKubeError(err, 404)) continue;
        logger().warn({ chunk: name, err: (err as Error).message }, 'shared catalog snapshot: a chunk not deleted');
      }
    }
  }

  /**
   * Chunks no manifest entry names, left by a writer that stopped between its chunks and its swap:
   * deleted once they are old enough that no writer is still at work on them.
   */
  private async collectOrphans(): Promise<void> {
    const data = (await this.manifest())?.data ?? {};
    const named = new Set<string>();
    for (const field of fieldsIn(data)) {
      const e = this.entryOf(data, field);
      if (typeof e === 'object') for (const [name] of e.chunks) named.add(name);
      // An entry this replica cannot open may be another key's: its chunks are not ours to judge.
      else named.add(`*${field.slice(2)}`);
    }
    const list = await this.client.list<ConfigMap>(CONFIG_MAP_TYPE, {
      namespace: this.namespace,
      labelSelector: CHUNK_LABEL,
    });
    const stale = list.items.filter((cm) => {
      const name = cm.metadata?.name ?? '';
      const id = CHUNK_NAME.exec(name)?.[1];
      const age = Date.now() - Date.parse(cm.metadata?.creationTimestamp ?? '');
      return id && !named.has(name) && !named.has(`*${id}`) && age >= this.orphanAgeMs;
    });
    await this.remove(stale.map((cm) => cm.metadata!.name!));
  }
}
