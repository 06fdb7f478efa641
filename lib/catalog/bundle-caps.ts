// What the console keeps of a registry's bundle messages, bounded. Catalog content is third-party:
// a CSV description is free markdown of any length (issue 19: one of 5 MB), and the index keeps
// the channel heads' CSVs for every catalog, and up to MAX_CACHED_CSVS full CSVs besides, for as
// long as the process runs. Long descriptions are cut with a marker saying so; ListBundles'
// manifests (csvJson, object), which the index never reads, are dropped as each message arrives.
import { PROPERTY_BUNDLE_OBJECT, PROPERTY_CSV_METADATA } from '../olm/fbc/types';
import type { BundleMessage } from '../olm/registry-api';

/**
 * The longest description kept, in characters. The longest in ../shared/catalogs is 11.8 K
 * characters (certified-operators-v4.18, nutanixcsioperator); 64 K is five times that, a long
 * page of markdown, and bounds a head's description to 64 K (128 KB as UTF-16) per package.
 */
export const DESCRIPTION_CAP_CHARS = 64 * 1024;

function size(chars: number): string {
  return chars >= 1024 * 1024 ? `${(chars / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(chars / 1024)} KB`;
}

/**
 * `text` cut to `cap` characters with a marker, or `text` itself. The cut is copied into a new
 * string: V8 keeps a slice as a view of its parent, which would keep the whole text alive.
 */
export function capText(text: string, cap = DESCRIPTION_CAP_CHARS): string {
  if (text.length <= cap) return text;
  let end = cap;
  // Not between the two halves of a surrogate pair.
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--;
  const head = Buffer.from(text.slice(0, end), 'utf8').toString('utf8');
  return `${head}\n\n… (truncated by the console: ${size(text.length)} of description, the first ${size(end)} shown)`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Caps a CSV's (or a CSV-shaped `olm.csv.metadata`'s) descriptions in place: `spec.description`
 * (or the metadata's top-level `description`) and the `description` annotation. Returns how many
 * were capped and how many characters that removed (the marker counted).
 */
export function capCsv(csv: Record<string, unknown>): { capped: number; removed: number } {
  let capped = 0;
  let removed = 0;
  const cap = (o: Record<string, unknown> | undefined, key: string) => {
    const v = o?.[key];
    if (typeof v !== 'string' || v.length <= DESCRIPTION_CAP_CHARS) return;
    const text = capText(v);
    capped++;
    removed += v.length - text.length;
    o![key] = text;
  };
  cap(isRecord(csv.spec) ? csv.spec : undefined, 'description');
  cap(csv, 'description');
  const meta = isRecord(csv.metadata) ? csv.metadata : undefined;
  cap(isRecord(meta?.annotations) ? meta.annotations : undefined, 'description');
  cap(isRecord(csv.annotations) ? csv.annotations : undefined, 'description');
  return { capped, removed };
}

/** A CSV's JSON text parsed and capped; undefined when it is not a JSON object. */
export function parseCsvCapped(json: string): { csv: Record<string, unknown>; chars: number } | undefined {
  let csv: unknown;
  try {
    csv = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!isRecord(csv)) return undefined;
  return { csv, chars: json.length - capCsv(csv).removed };
}

/** A property value whose description is over the cap, written again with it capped. */
function capProperty(p: { type: string; value: string }): { type: string; value: string } {
  if (p.value.length <= DESCRIPTION_CAP_CHARS) return p;
  try {
    if (p.type === PROPERTY_CSV_METADATA) {
      const meta = JSON.parse(p.value) as unknown;
      if (isRecord(meta) && capCsv(meta).capped > 0) return { type: p.type, value: JSON.stringify(meta) };
    } else if (p.type === PROPERTY_BUNDLE_OBJECT) {
      // A registry that sends the bundle's objects in properties (opm leaves them out): a CSV
      // among them is capped like any other.
      const v = JSON.parse(p.value) as unknown;
      const data = isRecord(v) && typeof v.data === 'string' ? v.data : undefined;
      if (data) {
        const obj = JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as unknown;
        if (isRecord(obj) && obj.kind === 'ClusterServiceVersion' && capCsv(obj).capped > 0)
          return { type: p.type, value: JSON.stringify({ data: Buffer.from(JSON.stringify(obj)).toString('base64') }) };
      }
    }
  } catch {
    // Not JSON: kept as it is, and read as absent later.
  }
  return p;
}

/** About how many bytes a bundle message carried: its text fields, the bulk of it. */
export function bundleMessageChars(b: Pick<BundleMessage, 'csvJson' | 'object' | 'properties'>): number {
  let n = b.csvJson?.length ?? 0;
  for (const o of b.object ?? []) n += o.length;
  for (const p of b.properties ?? []) n += p.value?.length ?? 0;
  return n;
}

/**
 * A ListBundles message as the index keeps it: without `csvJson` and `object` (the manifests,
 * sent for bundles that have no image; the index takes a head's CSV from GetBundleForChannel and
 * a version's from GetBundle), descriptions in its properties capped.
 */
export function slimListedBundle(b: BundleMessage): BundleMessage {
  return { ...b, csvJson: '', object: [], properties: b.properties.map(capProperty) };
}
