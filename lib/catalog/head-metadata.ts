// A registry's ListBundles carries every bundle's `olm.csv.metadata` (description, CRD
// descriptions, examples: most of a big catalog's bytes). The console's shared index reads it
// only for channel heads (the tiles); a version's page asks GetBundle for that version's whole CSV.
// Dropping the rest before the model is built keeps a 1,000-package catalog from costing a
// gigabyte of parsed metadata that nobody reads.
import type { RegistryBundleMessage, RegistryPackageMessage } from '../olm/fbc/from-registry';
import { PROPERTY_CSV_METADATA } from '../olm/fbc/types';

/** Removes `olm.csv.metadata` from every message whose bundle heads no channel; returns how many. */
export function keepHeadMetadataOnly(
  packages: readonly RegistryPackageMessage[],
  bundles: RegistryBundleMessage[],
): number {
  const heads = new Set<string>();
  for (const p of packages) for (const c of p.channels) if (c.csvName) heads.add(`${p.name}/${c.csvName}`);
  let dropped = 0;
  for (const b of bundles) {
    if (heads.has(`${b.packageName}/${b.csvName}`)) continue;
    const kept = b.properties.filter((p) => p.type !== PROPERTY_CSV_METADATA);
    if (kept.length !== b.properties.length) {
      b.properties = kept;
      dropped++;
    }
  }
  return dropped;
}
