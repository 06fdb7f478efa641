// A registry+v1 bundle's files (what its image holds under manifests/ and metadata/) read into the
// objects OLM installs, as operator-controller v1.2.0 reads an unpacked bundle (render/registryv1
// source FromFS): metadata/annotations.yaml names the package; every file of manifests/, in name
// order, is a stream of YAML or JSON documents, each an object (a `List` gives its items); a folder
// inside manifests/ is refused; a ClusterServiceVersion is required (of several, the last counts,
// as operator-controller keeps it). docs/olm-v1/bundle-images.md. Pure: the files come from
// lib/server/bundle-images, which reads them from the image.
import yaml from 'js-yaml';

export type BundleObject = { apiVersion: string; kind: string; metadata: Record<string, unknown> } & Record<
  string,
  unknown
>;

export interface RegistryV1Bundle {
  /** `operators.operatorframework.io.bundle.package.v1`, when annotations.yaml gives it. */
  packageName?: string;
  annotations: Record<string, string>;
  csv: BundleObject;
  /** Every object but the CSV, in the order of their files and documents. */
  others: BundleObject[];
}

export const ANNOTATIONS_FILE = 'metadata/annotations.yaml';
const MANIFESTS = 'manifests/';
const PACKAGE_ANNOTATION = 'operators.operatorframework.io.bundle.package.v1';

// As sigs.k8s.io/yaml reads it: an unquoted timestamp stays the text it was written as.
const SCHEMA = yaml.CORE_SCHEMA;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function documents(file: string, text: string): BundleObject[] | { error: string } {
  let docs: unknown[];
  try {
    docs = yaml.loadAll(text, null, { schema: SCHEMA, filename: file });
  } catch (err) {
    return { error: `${file} is neither YAML nor JSON: ${(err as Error).message.split('\n')[0]}` };
  }
  const out: BundleObject[] = [];
  for (const doc of docs) {
    if (doc === null || doc === undefined) continue;
    if (!isRecord(doc)) return { error: `${file} holds a document that is not an object` };
    const items = doc.kind === 'List' && Array.isArray(doc.items) ? doc.items : [doc];
    for (const o of items) {
      if (!isRecord(o) || typeof o.kind !== 'string' || !o.kind || typeof o.apiVersion !== 'string')
        return { error: `${file} holds an object without apiVersion and kind` };
      out.push({ ...o, metadata: isRecord(o.metadata) ? o.metadata : {} } as BundleObject);
    }
  }
  return out;
}

/** The bundle in `files` (paths relative to the image's root), or why OLM would not read it. */
export function readRegistryV1Files(files: ReadonlyMap<string, string>): RegistryV1Bundle | { error: string } {
  const annotationsText = files.get(ANNOTATIONS_FILE);
  if (annotationsText === undefined) return { error: `the bundle has no ${ANNOTATIONS_FILE}` };
  let annotationsDoc: unknown;
  try {
    annotationsDoc = yaml.load(annotationsText, { schema: SCHEMA });
  } catch (err) {
    return { error: `${ANNOTATIONS_FILE} is not YAML: ${(err as Error).message.split('\n')[0]}` };
  }
  const raw = isRecord(annotationsDoc) && isRecord(annotationsDoc.annotations) ? annotationsDoc.annotations : {};
  const annotations = Object.fromEntries(
    Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );

  const names = [...files.keys()].filter((p) => p.startsWith(MANIFESTS)).sort();
  const nested = names.find((p) => p.slice(MANIFESTS.length).includes('/'));
  if (nested) {
    const folder = nested.slice(0, nested.indexOf('/', MANIFESTS.length));
    return { error: `a folder inside manifests/ is not allowed in a bundle: found ${folder}` };
  }
  const objects: BundleObject[] = [];
  for (const name of names) {
    const docs = documents(name, files.get(name)!);
    if ('error' in docs) return docs;
    objects.push(...docs);
  }
  // operator-controller keeps the last CSV it meets and drops the others; so does this.
  const csv = objects.findLast((o) => o.kind === 'ClusterServiceVersion');
  if (!csv) return { error: 'the bundle has no ClusterServiceVersion in manifests/' };
  return {
    ...(annotations[PACKAGE_ANNOTATION] ? { packageName: annotations[PACKAGE_ANNOTATION] } : {}),
    annotations,
    csv,
    others: objects.filter((o) => o.kind !== 'ClusterServiceVersion'),
  };
}
