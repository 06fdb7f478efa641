// Reading a catalog from its registry's gRPC API: the whole graph (ListPackages, GetPackage,
// ListBundles) with the tiles' head CSVs, and the bundles fetched one at a time later (a full
// CSV, a bundle's manifests, an icon). Nothing here is cached or checked for who asks: the
// caller (catalog-index.ts) decides both.
import { status } from '@grpc/grpc-js';
import { buildCatalog, type Catalog } from '../olm/fbc/catalog';
import { configFromRegistry } from '../olm/fbc/from-registry';
import type { DeclarativeConfig } from '../olm/fbc/types';
import type { PackageModel } from '../olm/fbc/model';
import { csvOfBundle, type CsvLike } from '../olm/resources/csv-description';
import { logger } from '../observability/logger';
import { bundleMessageChars, parseCsvCapped, slimListedBundle } from './bundle-caps';
import { keepHeadMetadataOnly } from './head-metadata';
import { summaryHead } from './package-summary';
import { RegistryClient, RegistryError, type RegistryPackage } from './registry-client';

/** The deadline of a whole-catalog read: ListBundles of a 1,000-package catalog takes seconds. */
export const CATALOG_READ_TIMEOUT_MS = 20_000;
/** The deadline of one bundle fetched for a details page, an icon or a plan. */
export const BUNDLE_FETCH_TIMEOUT_MS = 10_000;
/** Head CSVs fetched at once during a read: enough to hide latency, few enough for one opm pod. */
const HEAD_FETCH_CONCURRENCY = 8;

/**
 * Failures of one GetBundleForChannel that say nothing about the rest of the catalog: the bundle
 * is over the message limit (RESOURCE_EXHAUSTED), or the registry could not make it (UNKNOWN,
 * INTERNAL: not found, no single head, a broken CSV).
 */
const ONE_BUNDLE_FAILURES = new Set<number>([status.RESOURCE_EXHAUSTED, status.UNKNOWN, status.INTERNAL]);

export interface IconBytes {
  data: Buffer;
  mediatype: string;
}

export interface RegistryRead {
  catalog: Catalog;
  /** What the catalog was built from, for a snapshot (index-snapshot.ts). */
  config: DeclarativeConfig;
  /** Bytes of registry messages in the read. */
  bytes: number;
  /** The CSVs of tiles' heads that ListBundles did not carry, by package. */
  heads: Map<string, CsvLike>;
}

/** A CSV read along the way, for the caller to keep: `key` is `cacheKey|package|channel|csvName` (RegistryRoute). */
export type KeepCsv = (key: string, csv: Record<string, unknown>, chars: number) => void;

/** A channel head whose CSV is fetched for its package's tile. */
interface WantedHead {
  pkg: string;
  channel: string;
  csvName: string;
}

/** The head a tile describes as the registry's GetPackage names it: summaryHead's rule, before the graph is known. */
function namedHead(p: RegistryPackage): WantedHead | undefined {
  const channel =
    p.channels.find((c) => c.name === p.defaultChannelName) ??
    [...p.channels].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))[0];
  return channel?.csvName ? { pkg: p.name, channel: channel.name, csvName: channel.csvName } : undefined;
}

/**
 * The whole catalog at `dial`. Each ListBundles message is slimmed as it arrives: its manifests (a
 * catalog of inline bundles sends every CSV and CRD, tens of megabytes) are never all held at once.
 * The tiles' head CSVs are asked for while ListBundles streams, from the heads GetPackage names (opm's
 * ListBundles never carries them): the two are most of a read, and neither waits for the other.
 */
export async function readRegistry(
  dial: string,
  maxMessageBytes: number,
  keepCsv: KeepCsv,
  cacheKey = dial,
): Promise<RegistryRead> {
  const client = new RegistryClient(dial, CATALOG_READ_TIMEOUT_MS, maxMessageBytes);
  try {
    const names = await client.listPackages();
    const packages = await Promise.all(names.map((n) => client.getPackage(n)));
    const early = headCsvs(
      client,
      cacheKey,
      packages.map(namedHead).filter((h): h is WantedHead => !!h),
      keepCsv,
    );
    // Settled here too: a ListBundles failure must not leave this rejection unhandled.
    early.catch(() => undefined);
    let bytes = 0;
    const bundles = await client.listBundles((b) => {
      bytes += bundleMessageChars(b);
      return slimListedBundle(b);
    });
    keepHeadMetadataOnly(packages, bundles);
    const config = configFromRegistry(packages, bundles);
    const catalog = buildCatalog(config);
    const fetched = await early;
    // A head the graph puts elsewhere than GetPackage said, and that ListBundles did not describe.
    const missing: WantedHead[] = [];
    for (const pkg of catalog.packages.values()) {
      const { channel, head } = summaryHead(pkg);
      if (!channel || !head || csvOfBundle(head)) continue;
      if (fetched.get(pkg.name)?.csvName !== head.name) missing.push({ pkg: pkg.name, channel, csvName: head.name });
    }
    const late = await headCsvs(client, cacheKey, missing, keepCsv);
    const heads = new Map<string, CsvLike>();
    for (const pkg of catalog.packages.values()) {
      const { head } = summaryHead(pkg);
      if (!head || csvOfBundle(head)) continue;
      const got = late.get(pkg.name) ?? fetched.get(pkg.name);
      if (got?.csvName === head.name) heads.set(pkg.name, got.csv);
    }
    return { catalog, config, bytes, heads };
  } finally {
    client.close();
  }
}

/**
 * The CSVs of the `wanted` heads, one GetBundleForChannel each, a few at a time; handed to `keepCsv`
 * as the full CSVs the details pages ask for next. One head that cannot be had (over the message
 * limit, not JSON, not found) leaves its tile described from the package alone; the registry
 * failing altogether fails the read.
 */
async function headCsvs(
  client: RegistryClient,
  cacheKey: string,
  wanted: readonly WantedHead[],
  keepCsv: KeepCsv,
): Promise<Map<string, { csvName: string; csv: CsvLike }>> {
  const out = new Map<string, { csvName: string; csv: CsvLike }>();
  let next = 0;
  const worker = async () => {
    while (next < wanted.length) {
      const m = wanted[next++]!;
      let b;
      try {
        b = await client.getBundleForChannel(m.pkg, m.channel);
      } catch (err) {
        if (!(err instanceof RegistryError) || !ONE_BUNDLE_FAILURES.has(err.code)) throw err;
        logger().warn(
          { registry: cacheKey, package: m.pkg, channel: m.channel, err: err.message },
          'catalog index: a channel head could not be read; its tile is described from the package',
        );
        continue;
      }
      const parsed = b.csvJson ? parseCsvCapped(b.csvJson) : undefined;
      // The head named when the read began; the registry answers with the head it has now.
      const csvName = b.csvName || m.csvName;
      if (!parsed) continue;
      keepCsv(`${cacheKey}|${m.pkg}|${m.channel}|${csvName}`, parsed.csv, parsed.chars);
      out.set(m.pkg, { csvName, csv: parsed.csv as CsvLike });
    }
  };
  await Promise.all(Array.from({ length: Math.min(HEAD_FETCH_CONCURRENCY, wanted.length) }, worker));
  return out;
}

/** The bundle's whole CSV from GetBundle, its descriptions capped (bundle-caps.ts); null if it has none. */
export async function fetchFullCsv(
  address: string,
  maxMessageBytes: number,
  pkg: string,
  channel: string,
  csvName: string,
): Promise<{ csv: Record<string, unknown>; chars: number } | null> {
  const client = new RegistryClient(address, BUNDLE_FETCH_TIMEOUT_MS, maxMessageBytes);
  try {
    const b = await client.getBundle(pkg, channel, csvName);
    return (b.csvJson ? parseCsvCapped(b.csvJson) : undefined) ?? null;
  } finally {
    client.close();
  }
}

/**
 * The icon of the package's default channel head, from its CSV; null if it declares none. A CSV
 * that is not JSON is an error, as an unreachable registry is.
 */
export async function fetchHeadIcon(
  address: string,
  maxMessageBytes: number,
  pkg: PackageModel,
): Promise<IconBytes | null> {
  const registry = new RegistryClient(address, BUNDLE_FETCH_TIMEOUT_MS, maxMessageBytes);
  try {
    const channel = pkg.defaultChannel ?? [...pkg.channels.keys()][0] ?? '';
    const b = await registry.getBundleForChannel(pkg.name, channel);
    const csv = b.csvJson
      ? (JSON.parse(b.csvJson) as { spec?: { icon?: { base64data?: unknown; mediatype?: unknown }[] } })
      : undefined;
    const first = Array.isArray(csv?.spec?.icon) ? csv.spec.icon[0] : undefined;
    return typeof first?.base64data === 'string' && first.base64data && typeof first.mediatype === 'string'
      ? { data: Buffer.from(first.base64data, 'base64'), mediatype: first.mediatype }
      : null;
  } finally {
    registry.close();
  }
}

/**
 * Whether GetBundle's only object is the CSV the registry made up from the bundle's `olm.csv.metadata`
 * rather than one the catalog carries. opm (pkg/api/model_to_api.go, ConvertModelBundleToAPIBundle)
 * does so for a bundle with no CSV among its objects: it builds a CSV from the metadata with a stub
 * install strategy, `deployment` with no deployments and no permissions, and when the bundle has no
 * objects at all answers `object: [that CSV]`. Its answer's properties cannot tell: opm leaves both
 * `olm.bundle.object` and `olm.csv.metadata` out of them. The stub can: a bundle's own CSV installs
 * something, a deployment at least.
 */
function isMadeUpCsv(raw: readonly string[], csvJson: string, objects: readonly Record<string, unknown>[]): boolean {
  if (raw.length !== 1 || objects.length !== 1 || raw[0] !== csvJson) return false;
  const csv = objects[0] as { kind?: unknown; spec?: { install?: { strategy?: unknown; spec?: unknown } } };
  const install = csv.spec?.install;
  if (csv.kind !== 'ClusterServiceVersion' || install?.strategy !== 'deployment') return false;
  const spec = (install.spec ?? {}) as Record<string, unknown>;
  const none = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0);
  return none(spec.deployments) && none(spec.permissions) && none(spec.clusterPermissions);
}

/**
 * The manifests a bundle ships, from GetBundle's objects, or why they are not known: a bundle
 * served as an image carries no objects until OLM unpacks it, and the CSV a registry makes up for
 * such a bundle (isMadeUpCsv) is its metadata, not its manifests: no rules, no deployments, no CRDs.
 * The reason names the image, for the caller to read it from there (bundle-images/bundle-manifests.ts).
 */
export async function fetchBundleObjects(
  address: string,
  maxMessageBytes: number,
  pkg: string,
  channel: string,
  csvName: string,
): Promise<Record<string, unknown>[] | string> {
  const client = new RegistryClient(address, BUNDLE_FETCH_TIMEOUT_MS, maxMessageBytes);
  try {
    const b = await client.getBundle(pkg, channel, csvName);
    const raw = b.object ?? [];
    const objects = raw.flatMap((o) => {
      try {
        return [JSON.parse(o) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
    const byImage =
      `its bundle is the image ${b.bundlePath || 'of the catalog'}, ` +
      'whose manifests OLM reads only when it installs it';
    if (!objects.length) return byImage;
    if (isMadeUpCsv(raw, b.csvJson ?? '', objects))
      return `${byImage}; the registry gives only a CSV made from the catalog's metadata, without the bundle's rules`;
    return objects;
  } catch (err) {
    return `the catalog's registry did not answer: ${(err as Error).message}`;
  } finally {
    client.close();
  }
}
