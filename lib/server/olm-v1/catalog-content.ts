// Reading a ClusterCatalog's content from catalogd's content API (`<status.urls.base>/api/v1/all`:
// one FBC document per line, docs/olm-v1/catalogs.md#the-content-api) into the console's FBC model.
// The address comes from an object's status and the content from whoever built the image, so both
// are treated as hostile: only catalogd's address the console was told of (catalogd-address.ts,
// checked before this is called), HTTPS only, no credential of the person or the console sent,
// the server checked against the cluster's CA (or the public roots), and limits on size, line
// length and time.
// catalogd v1.2.0 asks no one who they are: whoever may read the ClusterCatalog learns the address
// and can read the content, so the console reading it shows the person nothing new.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import type { KubeConfig } from '@kubernetes/client-node';
import { catalogFromBlobs, describeProblems, type Catalog } from '../../olm/fbc/catalog';
import { sortBlobs, type ParsedBlob } from '../../olm/fbc/parse';
import type { DeclarativeConfig } from '../../olm/fbc/types';
import type { CatalogContentSummary } from '../../api/olm-v1-catalogs';

/** The whole body: the largest published catalog here (certified-operators) is about 20 MB of FBC. */
export const MAX_CONTENT_BYTES = 128 * 1024 * 1024;
/** One document: as large as the registry messages the console accepts from v0 catalogs. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
const TIMEOUT_MS = 20_000;
/** How many problems a summary lists; the count says how many more there were. */
const MAX_LISTED_PROBLEMS = 10;
const FILE = 'api/v1/all';

/** Why content was not read; for the same address, digest and unpack time it would fail the same way. */
export class ContentError extends Error {}
/** Why content could not be had this time (the server, the network, a timeout): worth asking again. */
export class ContentUnavailable extends ContentError {}

/** Splits a JSON-lines body into blobs; a line that is not a JSON object is refused with its number. */
export class JsonLinesReader {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private line = 0;
  readonly blobs: ParsedBlob[] = [];

  push(chunk: Buffer): void {
    let start = 0;
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, i));
      this.finishLine();
      start = i + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
  }

  end(): void {
    if (this.pendingBytes > 0) this.finishLine();
  }

  private take(part: Buffer): void {
    this.pendingBytes += part.length;
    if (this.pendingBytes > MAX_LINE_BYTES)
      throw new ContentError(
        `line ${this.line + 1} is longer than ${MAX_LINE_BYTES} bytes, the limit for one document`,
      );
    this.pending.push(part);
  }

  private finishLine(): void {
    this.line += 1;
    const text = Buffer.concat(this.pending).toString('utf8').trim();
    this.pending = [];
    this.pendingBytes = 0;
    if (!text) return;
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch {
      // Not V8's message: it quotes the text, and the address may not be catalogd's.
      throw new ContentError(`line ${this.line} is not JSON`);
    }
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
      throw new ContentError(`line ${this.line} is not a JSON object`);
    const blob = doc as Record<string, unknown>;
    // opm skips a document without a schema; so does catalogd's storage.
    if (typeof blob.schema !== 'string' || blob.schema === '') return;
    this.blobs.push({ blob, origin: { file: FILE, index: this.line } });
  }
}

/** What the console keeps of a catalog's content: the summary shown, and names to find dependents by. */
export interface ContentIndex {
  summary: CatalogContentSummary;
  /** Every package named, healthy or not, and each package's bundles. */
  bundles: ReadonlyMap<string, ReadonlySet<string>>;
  /** The content through the FBC model: healthy packages, and the problems of the broken ones. */
  catalog?: Catalog;
  /**
   * Each package's documents as operator-controller resolves against them (its catalog client
   * hands resolution one package's blobs, broken or not): lib/olm/v1/resolve.ts reads these.
   */
  configs: ReadonlyMap<string, DeclarativeConfig>;
}

/** The content index of a catalog not read: nothing to show or resolve against, and why. */
export function unreadContent(why: string): ContentIndex {
  return { summary: { read: false, why }, bundles: new Map(), configs: new Map() };
}

function packageOf(blob: Record<string, unknown>): string | undefined {
  const name = blob.schema === 'olm.package' ? blob.name : blob.package;
  return typeof name === 'string' ? name : undefined;
}

/** The documents split by the package they belong to, each group in the FBC shape. */
function configsByPackage(blobs: readonly ParsedBlob[]): Map<string, DeclarativeConfig> {
  const groups = new Map<string, ParsedBlob[]>();
  for (const b of blobs) {
    const name = packageOf(b.blob);
    if (name === undefined) continue;
    const group = groups.get(name);
    if (group) group.push(b);
    else groups.set(name, [b]);
  }
  const configs = new Map<string, DeclarativeConfig>();
  for (const [name, group] of groups) configs.set(name, sortBlobs(group).config);
  return configs;
}

/** What the model makes of the documents: healthy packages, broken ones, and the first problems. */
export function summarize(blobs: readonly ParsedBlob[]): ContentIndex {
  const catalog = catalogFromBlobs(blobs);
  const problems = describeProblems(catalog);
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS);
  if (problems.length > listed.length) listed.push(`and ${problems.length - listed.length} more problems`);
  const bundles = new Map<string, Set<string>>();
  for (const [name, pkg] of catalog.model.packages) bundles.set(name, new Set(pkg.bundles.keys()));
  return {
    summary: {
      read: true,
      packages: catalog.packages.size,
      brokenPackages: [...catalog.problems.keys()].filter((p) => p !== '').length,
      problems: listed,
    },
    bundles,
    catalog,
    configs: configsByPackage(blobs),
  };
}

/** The CA that signed the cluster's serving certificate, where the kubeconfig names one. */
function clusterCa(kc: KubeConfig): string | undefined {
  const cluster = kc.getCurrentCluster();
  if (cluster?.caData) return Buffer.from(cluster.caData, 'base64').toString('utf8');
  if (cluster?.caFile) return readFileSync(cluster.caFile, 'utf8');
  return undefined;
}

/** The content URL for a base, or why the console will not read it. */
export function contentUrl(base: string): URL {
  let url: URL;
  try {
    url = new URL(`${base.replace(/\/+$/, '')}/api/v1/all`);
  } catch {
    throw new ContentError(`status.urls.base "${base}" is not a URL`);
  }
  if (url.protocol !== 'https:')
    throw new ContentError(
      `status.urls.base is ${url.protocol.replace(':', '')}; the console reads content over HTTPS only`,
    );
  if (url.username || url.password) throw new ContentError('status.urls.base carries credentials; not read');
  return url;
}

/**
 * Parses content already on hand (a snapshot's, content-snapshot.ts) with the same limits as
 * content read from catalogd: it is no more trusted for having been on disk.
 */
export function parseCatalogContent(body: Buffer): ContentIndex {
  if (body.length > MAX_CONTENT_BYTES)
    throw new ContentError(`the content is larger than ${MAX_CONTENT_BYTES / 1024 / 1024} MiB, the limit`);
  const reader = new JsonLinesReader();
  reader.push(body);
  reader.end();
  return summarize(reader.blobs);
}

/**
 * Fetches and parses the content; every failure is a rejection (never a throw: one catalog's bad
 * address must not fail the whole list) whose message a person can read. `tee` sees every byte of
 * an answer accepted so far, in order (the snapshot keeps them).
 */
export async function fetchCatalogContent(
  kc: KubeConfig,
  base: string,
  tee?: (chunk: Buffer) => void,
): Promise<ContentIndex> {
  const url = contentUrl(base);
  const ca = clusterCa(kc);
  return new Promise((resolve, reject) => {
    const fail = (message: string) => reject(new ContentUnavailable(message));
    const req = https.get(
      url,
      {
        ca: ca ? [...rootCertificates, ca] : undefined,
        headers: { Accept: 'application/jsonl', 'Accept-Encoding': 'identity' },
        timeout: TIMEOUT_MS,
        agent: false,
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return fail(`catalogd answered HTTP ${res.statusCode} for ${url.pathname}`);
        }
        const reader = new JsonLinesReader();
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          try {
            if (bytes > MAX_CONTENT_BYTES)
              throw new ContentError(`the content is larger than ${MAX_CONTENT_BYTES / 1024 / 1024} MiB, the limit`);
            reader.push(chunk);
            tee?.(chunk);
          } catch (err) {
            req.destroy();
            reject(err);
          }
        });
        res.on('end', () => {
          try {
            reader.end();
            resolve(summarize(reader.blobs));
          } catch (err) {
            reject(err);
          }
        });
        res.on('error', (err) => fail(`reading the content failed: ${err.message}`));
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS / 1000} s`)));
    req.on('error', (err) => fail(`catalogd's content server at ${url.host} could not be read: ${err.message}`));
  });
}
