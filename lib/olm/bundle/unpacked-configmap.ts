// A bundle as OLM v0 reads it back from its unpack ConfigMap (docs/olm/install-plans.md#bundle-lookups).
// OLM's unpack Job writes each file of the bundle's manifests/ folder under its own key
// (operator-registry v1.61.0 configmap_writer.go Populate; metadata/annotations.yaml goes to the
// ConfigMap's annotations instead), gzipped and base64-encoded in binaryData when the ConfigMap is
// annotated `olm.contentEncoding: gzip+base64`, which OLM v0.38.0's Job always asks for (`-z`).
// The catalog operator reads it back (configmap.go loadBundle, then resolver steps.go
// NewStepResourceFromBundle): keys in name order, the first YAML or JSON document of each, a value
// that is not an object with a kind skipped, the last ClusterServiceVersion met as the CSV, every
// other object kept. Pure: the server decodes binaryData (lib/server) and hands the text here.
import yaml from 'js-yaml';
import type { BundleObject } from './registry-v1-files';

export const CONTENT_ENCODING_ANNOTATION = 'olm.contentEncoding';
export const GZIP_BASE64 = 'gzip+base64';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The first document of a value, as an object with apiVersion and kind, or undefined as OLM skips it. */
function firstObject(text: string): BundleObject | undefined {
  let doc: unknown;
  try {
    // The first document only, as the YAML-or-JSON decoder OLM uses reads one and stops.
    doc = yaml.load(text.split(/^---\s*$/m).find((d) => d.trim() !== '') ?? '', { schema: yaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
  if (!isRecord(doc) || typeof doc.kind !== 'string' || !doc.kind) return undefined;
  return {
    ...doc,
    apiVersion: String(doc.apiVersion ?? ''),
    metadata: isRecord(doc.metadata) ? doc.metadata : {},
  } as BundleObject;
}

/** The CSV and other objects of an unpack ConfigMap's decoded files, or why OLM could not take it. */
export function readUnpackedFiles(
  files: ReadonlyMap<string, string>,
): { csv: BundleObject; others: BundleObject[] } | { error: string } {
  const objects = [...files.keys()]
    .sort()
    .map((k) => firstObject(files.get(k)!))
    .filter((o): o is BundleObject => o !== undefined);
  const csv = objects.findLast((o) => o.kind === 'ClusterServiceVersion');
  if (!csv) return { error: 'the unpacked bundle holds no ClusterServiceVersion' };
  return { csv, others: objects.filter((o) => o.kind !== 'ClusterServiceVersion') };
}
