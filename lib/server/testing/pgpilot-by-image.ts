// The demo's pgpilot 1.5.0 given by image only, as published catalogs give bundles, for the route
// tests of what the console reads from a bundle image (v0 and v1 brings, the v1 install plan): its
// objects as a registry+v1 image for a registry of the test's own (oci-images.ts), and a catalog
// folder of one package, one channel and that bundle naming the image, its olm.bundle.object
// properties left out (nothing put in their place: the console has only the image to read).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFbcDir } from '../../olm/fbc/load-dir';
import { PROPERTY_BUNDLE_OBJECT, SCHEMA_BUNDLE } from '../../olm/fbc/types';
import { gzipLayer, imageOf, type TestImage, type TestRegistry } from './oci-images';

const BUNDLE = 'pgpilot.v1.5.0';
const REPOSITORY = 'bundles/pgpilot';

const DEMO_DIR = join(import.meta.dirname, '..', '..', 'sandbox', 'demo-catalog', 'catalog');

type Blob = Record<string, unknown> & { schema?: string; name?: string };
type Property = { type: string; value: { data?: string } };

export interface PgpilotByImage {
  image: TestImage;
  /** Adds the image to `registry` (as bundles/pgpilot) and writes `dir`/catalog.json naming it there. */
  serve(registry: TestRegistry, dir: string): void;
}

/** pgpilot 1.5.0's image (manifests/ and metadata/annotations.yaml), to serve with its catalog. */
export async function pgpilotByImage(): Promise<PgpilotByImage> {
  const bundle = readFbcDir(DEMO_DIR)
    .blobs.map((b) => b.blob as Blob)
    .find((b) => b.schema === SCHEMA_BUNDLE && b.name === BUNDLE)!;
  const props = (bundle.properties ?? []) as Property[];
  const image = imageOf([
    await gzipLayer([
      ...props
        .filter((p) => p.type === PROPERTY_BUNDLE_OBJECT)
        .map((p, i) => ({ name: `manifests/${i}.json`, content: Buffer.from(p.value.data!, 'base64').toString() })),
      {
        name: 'metadata/annotations.yaml',
        content: 'annotations:\n  operators.operatorframework.io.bundle.package.v1: pgpilot\n',
      },
    ]),
  ]);
  const serve = (registry: TestRegistry, dir: string) => {
    registry.add(REPOSITORY, image);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'catalog.json'),
      [
        { schema: 'olm.package', name: 'pgpilot', defaultChannel: 'stable' },
        { schema: 'olm.channel', package: 'pgpilot', name: 'stable', entries: [{ name: BUNDLE }] },
        {
          ...bundle,
          image: `${registry.host}/${REPOSITORY}@${image.digest}`,
          properties: props.filter((p) => p.type !== PROPERTY_BUNDLE_OBJECT),
        },
      ]
        .map((b) => JSON.stringify(b))
        .join('\n'),
    );
  };
  return { image, serve };
}
