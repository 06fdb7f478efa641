// What catalogd stores for a catalog and serves at /api/v1/all: every FBC document of the unpacked
// image, in the order a lexical walk of its files meets them, each decoded into a generic map and
// written again by Go's encoding/json with HTML escaping off, one per line — so keys come out
// sorted, numbers as float64, YAML as JSON, the original formatting gone
// (internal/catalogd/storage/localdir.go storeCatalogData; operator-registry alpha/declcfg
// Meta.UnmarshalJSON). docs/olm-v1/catalogs.md#content.
import { createHash } from 'node:crypto';
import { readFbcDir } from '../../olm/fbc/load-dir';

/** A string as Go's encoder writes it: \b \f \n \r \t, other controls as \u00xx, U+2028/9 escaped. */
function goString(s: string): string {
  return JSON.stringify(s)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

// Go sorts map keys by their UTF-8 bytes; JavaScript's default sort compares UTF-16 units, which
// orders characters above U+FFFF differently.
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** A decoded JSON value encoded as encoding/json encodes a map[string]interface{}. */
export function goJson(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return goString(v);
  // float64 formatting: Go and JavaScript switch to exponents at the same bounds (1e21, 1e-6).
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  if (v instanceof Date) return goString(v.toISOString());
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort(byBytes)
    .map((k) => `${goString(k)}:${goJson(o[k])}`)
    .join(',')}}`;
}

export interface StoredCatalog {
  /** The JSON lines catalogd serves. */
  jsonl: Buffer;
  /** sha256 of the content: the sandbox's stand-in for the image manifest digest. */
  digest: string;
}

/**
 * Reads an FBC folder into what catalogd would store. A file that does not parse fails the whole
 * catalog, as catalogd's walk does; the error names the file.
 */
export function storeCatalog(dir: string): StoredCatalog {
  const loaded = readFbcDir(dir);
  if (loaded.problems.length) throw new Error(loaded.problems[0]!.message);
  const jsonl = Buffer.from(loaded.blobs.map((b) => `${goJson(b.blob)}\n`).join(''));
  return { jsonl, digest: `sha256:${createHash('sha256').update(jsonl).digest('hex')}` };
}
