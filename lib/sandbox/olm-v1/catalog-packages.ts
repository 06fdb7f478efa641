// operator-controller's view of a catalog's content: it fetches /api/v1/all once per resolved image
// reference and keeps each package's blobs (catalogmetadata/cache, client). Here the content comes
// from the sandbox's catalogd directly, keyed the same way, and one package is read at a time.
import { buildModel, type PackageModel } from '../../olm/fbc/model';
import { sortBlobs } from '../../olm/fbc/parse';
import type { DeclarativeConfig } from '../../olm/fbc/types';

const cache = new Map<string, Record<string, unknown>[]>();

function blobs(catalog: string, ref: string, jsonl: Buffer): Record<string, unknown>[] {
  const k = `${catalog}@${ref}`;
  let hit = cache.get(k);
  if (!hit) {
    hit = jsonl
      .toString()
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    // One version per catalog, as operator-controller's cache keeps.
    for (const old of cache.keys()) if (old.startsWith(`${catalog}@`)) cache.delete(old);
    cache.set(k, hit);
  }
  return hit;
}

/** The package's FBC in that catalog (empty when the catalog lacks it), and its model for bundle content. */
export function packageContent(
  catalog: string,
  ref: string,
  jsonl: Buffer,
  packageName: string,
): { config: DeclarativeConfig; model?: PackageModel } {
  const mine = blobs(catalog, ref, jsonl).filter((b) =>
    b.schema === 'olm.package' ? b.name === packageName : b.package === packageName,
  );
  const { config } = sortBlobs(mine.map((blob, i) => ({ blob, origin: { file: 'catalog.jsonl', index: i + 1 } })));
  return { config, model: buildModel(config).model.packages.get(packageName) };
}
