// Demo bundles as published catalogs give them, for the tests of the move to OLM v1 from an
// image-only catalog: the bundle's objects for its image, and its catalog blob with the image
// named and the objects replaced by the CSV's metadata (olm.csv.metadata, as opm writes it), and
// the two objects of issue 40's probe (another team's CRD, a ClusterRole named like OLM's shared
// aggregate-olm-edit) for an image that ships what is not the operator's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { FOREIGN_CRD, SHARED_ROLE } from './foreign-bundle-catalog';

const DEMO = join(import.meta.dirname, '..', '..', 'sandbox', 'demo-catalog', 'catalog');

type Property = { type: string; value: Record<string, unknown> & { data?: string } };
export type CatalogDoc = Record<string, unknown> & { schema: string; name?: string; properties?: Property[] };
export type BundleObject = {
  apiVersion?: string;
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
  spec?: unknown;
} & Record<string, unknown>;

/** The demo catalog's documents of one package. */
export const demoDocs = (pkg: string) =>
  yaml.loadAll(readFileSync(join(DEMO, pkg, 'catalog.yaml'), 'utf8')) as CatalogDoc[];

/** A bundle blob's own objects (olm.bundle.object). */
export const objectsOf = (d: CatalogDoc): BundleObject[] =>
  (d.properties ?? [])
    .filter((p) => p.type === 'olm.bundle.object')
    .map((p) => JSON.parse(Buffer.from(p.value.data ?? '', 'base64').toString()) as BundleObject);

/** What opm keeps of a CSV in olm.csv.metadata: all of its spec but the install strategy and the graph. */
function csvMetadata(csv: BundleObject): Record<string, unknown> {
  const spec = { ...(csv.spec as Record<string, unknown>) };
  const crds = spec.customresourcedefinitions;
  for (const k of ['install', 'customresourcedefinitions', 'version', 'replaces', 'skips', 'relatedImages'])
    delete spec[k];
  return { ...spec, annotations: csv.metadata.annotations ?? {}, crdDescriptions: crds };
}

/** The bundle blob given by `image` only: its objects replaced by its CSV's metadata. */
export function imageOnly(d: CatalogDoc, image: string): CatalogDoc {
  const csv = objectsOf(d).find((o) => o.kind === 'ClusterServiceVersion')!;
  return {
    ...d,
    image,
    properties: [
      ...(d.properties ?? []).filter((p) => p.type !== 'olm.bundle.object'),
      { type: 'olm.csv.metadata', value: csvMetadata(csv) },
    ],
  };
}

/** The package's documents with only `bundle` left, given by `image` only, as its channels' one entry. */
export const onlyByImage = (docs: readonly CatalogDoc[], bundle: string, image: string): CatalogDoc[] =>
  docs
    .filter((d) => d.schema !== 'olm.bundle' || d.name === bundle)
    .map((d) =>
      d.schema === 'olm.bundle'
        ? imageOnly(d, image)
        : d.schema === 'olm.channel'
          ? { ...d, entries: [{ name: bundle }] }
          : d,
    );

/** pgpilot's CRD (another team's, to certwarden) and a ClusterRole named like OLM's shared aggregate-olm-edit. */
export function foreignObjects(): BundleObject[] {
  const pgpilotCrd = demoDocs('pgpilot')
    .filter((d) => d.schema === 'olm.bundle')
    .flatMap(objectsOf)
    .find((o) => o.kind === 'CustomResourceDefinition' && o.metadata.name === FOREIGN_CRD)!;
  const sharedRole = {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: SHARED_ROLE },
    rules: [{ apiGroups: ['operators.coreos.com'], resources: ['*'], verbs: ['*'] }],
  };
  return [pgpilotCrd, sharedRole];
}
