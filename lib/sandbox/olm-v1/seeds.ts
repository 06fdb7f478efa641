// The catalogs a sandbox starts with (--catalog folders, or the demo catalog) as OLM v1 sees them:
// each is a catalog image the sandbox can serve and a ClusterCatalog of the CatalogSource's name,
// as `npm run cluster` makes each --catalog a ClusterCatalog beside its CatalogSource.
import { resolve } from 'node:path';
import { DEMO_CATALOG_DIR, DEMO_CATALOG_SOURCE } from '../demo-catalog/location';
import { catalogSourceDefinition } from '../olm/catalog-sources';

/** The registry the sandbox's own catalog images are named under (nothing is pulled from it). */
export const SANDBOX_CATALOG_REGISTRY = 'sandbox.olm-console.dev/catalogs';

export interface V1Seed {
  name: string;
  ref: string;
  dir: string;
}

export function v1Seeds(
  catalogDirs: readonly string[],
  demo: boolean,
  namespace: string,
  demoDir: string = DEMO_CATALOG_DIR,
): V1Seed[] {
  const seeds = [
    ...catalogDirs.map((dir) => ({ dir, as: {} })),
    ...(demo ? [{ dir: demoDir, as: DEMO_CATALOG_SOURCE }] : []),
  ];
  return seeds.map((s) => {
    const name = catalogSourceDefinition(s.dir, s.as, namespace).metadata.name ?? '';
    return { name, ref: `${SANDBOX_CATALOG_REGISTRY}/${name}:latest`, dir: resolve(s.dir) };
  });
}
