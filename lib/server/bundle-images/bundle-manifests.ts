// A catalog bundle's manifests, wherever the catalog keeps them: its own `olm.bundle.object`
// properties when they hold a CSV, else its image, pulled as OLM pulls it (bundle-image.ts) and
// read as OLM reads it (lib/olm/bundle/registry-v1-files.ts), when this console pulls images
// (pull-settings.ts). The answer is the same either way, so the code that renders a bundle and
// computes the installer's rights does not care where it came from; or why it is not known.
// Given the person's access (their client, the catalog the bundle comes from), the image is read
// as they may read it: mirrors, pull secrets and registry CAs of the cluster (pull-access.ts);
// without it, anonymously from where it is named.
import { bundleObjects } from '../../olm/fbc/model';
import type { Property } from '../../olm/fbc/types';
import { readRegistryV1Files, type BundleObject } from '../../olm/bundle/registry-v1-files';
import { BundleImageRefused, readBundleImage } from './bundle-image';
import { DigestMismatch } from './digest';
import { LayerRefused } from './layer-files';
import type { PullAccess } from './pull-access';
import { pullSettings, type PullSettings } from './pull-settings';
import { RegistryError } from './registry-http';

/** The failures that are the image's or the registry's; anything else is the console's own bug. */
const refusals = [BundleImageRefused, DigestMismatch, LayerRefused, RegistryError];

export interface BundleRef {
  name: string;
  image?: string;
  properties?: readonly Property[];
}

export type BundleManifests =
  { csv: BundleObject; others: BundleObject[]; from: 'catalog' | 'image' } | { unknown: string };

/** The bundle's CSV and other manifests, or why they cannot be known here. */
export async function bundleManifests(
  bundle: BundleRef,
  settings: PullSettings | { off: string } = pullSettings(),
  access?: PullAccess,
): Promise<BundleManifests> {
  const inline = bundleObjects({ properties: [...(bundle.properties ?? [])] }) as BundleObject[];
  const csv = inline.find((o) => o.kind === 'ClusterServiceVersion');
  if (csv) return { csv, others: inline.filter((o) => o !== csv), from: 'catalog' };
  const byImage = `the catalog gives bundle ${bundle.name} by image only`;
  if (!bundle.image) return { unknown: `${byImage}, and names no image` };
  if ('off' in settings) return { unknown: `${byImage}, and ${settings.off}` };
  try {
    const image = await readBundleImage(bundle.image, settings, access);
    const read = readRegistryV1Files(image.files);
    if ('error' in read) return { unknown: `bundle image ${bundle.image} is not a bundle OLM can read: ${read.error}` };
    return { csv: read.csv, others: read.others, from: 'image' };
  } catch (err) {
    if (!refusals.some((k) => err instanceof k)) throw err;
    return { unknown: `bundle image ${bundle.image} cannot be read: ${(err as Error).message}` };
  }
}
