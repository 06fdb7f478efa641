// Loading a catalog directory: the edge that reads files, then the pure build.
import { catalogFromBlobs, type Catalog } from './catalog';
import { readFbcDir } from './load-dir';

export function loadCatalog(dir: string): Catalog {
  const { blobs, problems } = readFbcDir(dir);
  return catalogFromBlobs(blobs, problems);
}
