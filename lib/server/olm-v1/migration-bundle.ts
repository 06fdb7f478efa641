// The manifests of the bundle a move to OLM v1 would install, read where OLM v1 would read them:
// the catalog's own objects, else the image the catalog names (bundle-manifests.ts), pinned to one
// digest. A reference by tag is first resolved to the digest it names now and the bundle read by
// that digest, so the objects the move checks are the content of one image, and the move can ask
// again before it acts whether the catalog still names that image (a tag may move, a catalog may
// be updated): operator-controller pulls what the catalog names when the ClusterExtension is made.
import { bundleObjects } from '../../olm/fbc/model';
import type { MigrationBundleContent, MigrationContentSource } from '../../olm/v1/migration-check';
import { readBundleImage } from '../bundle-images/bundle-image';
import { bundleManifests, type BundleRef } from '../bundle-images/bundle-manifests';
import { parseImageReference } from '../bundle-images/image-reference';
import type { PullAccess } from '../bundle-images/pull-access';
import { pullSettings, type PullSettings } from '../bundle-images/pull-settings';

type Obj = { apiVersion: string; kind: string; metadata: Record<string, unknown> } & Record<string, unknown>;

const hasInlineCsv = (b: BundleRef) =>
  bundleObjects({ properties: [...(b.properties ?? [])] }).some((o) => o.kind === 'ClusterServiceVersion');

/**
 * The image pinned by digest, or undefined when it cannot be (bundleManifests then reads the
 * reference as written and says why it fails, or throws for the console's own bug).
 */
async function pinned(
  image: string,
  settings: PullSettings,
  access: PullAccess | undefined,
): Promise<{ image: string; digest: string } | undefined> {
  const ref = parseImageReference(image);
  if ('error' in ref) return undefined;
  if (ref.digest) return { image, digest: ref.digest };
  try {
    const { digest } = await readBundleImage(image, settings, access);
    return { image: `${ref.registry}/${ref.repository}@${digest}`, digest };
  } catch {
    return undefined;
  }
}

/** The bundle's manifests and where they were read, or why they are not known. */
export async function migrationBundle(
  bundle: BundleRef,
  access?: PullAccess,
  settings: PullSettings | { off: string } = pullSettings(),
): Promise<MigrationBundleContent> {
  const pin =
    bundle.image && !('off' in settings) && !hasInlineCsv(bundle)
      ? await pinned(bundle.image, settings, access)
      : undefined;
  const read = await bundleManifests(pin ? { ...bundle, image: pin.image } : bundle, settings, access);
  if ('unknown' in read) return read;
  let source: MigrationContentSource = { from: 'catalog' };
  if (read.from === 'image') {
    // Read by the tag after its digest could not be resolved: which image it was is not known.
    if (!pin) return { unknown: `the digest bundle image ${bundle.image ?? ''} names could not be resolved` };
    source = { from: 'image', image: bundle.image!, digest: pin.digest };
  }
  return { csv: read.csv as Obj, others: read.others as Obj[], source };
}

/** The digest the bundle's image resolves to now, or why it cannot be told; undefined for a bundle given inline. */
export async function bundleDigestNow(
  bundle: BundleRef,
  access?: PullAccess,
  settings: PullSettings | { off: string } = pullSettings(),
): Promise<{ digest: string } | { unknown: string } | undefined> {
  if (hasInlineCsv(bundle)) return undefined;
  if (!bundle.image) return { unknown: `the catalog names no image for bundle ${bundle.name} now` };
  if ('off' in settings) return { unknown: settings.off };
  const ref = parseImageReference(bundle.image);
  if ('error' in ref) return { unknown: ref.error };
  if (ref.digest) return { digest: ref.digest };
  try {
    return { digest: (await readBundleImage(bundle.image, settings, access)).digest };
  } catch (err) {
    return { unknown: `bundle image ${bundle.image} cannot be read: ${(err as Error).message}` };
  }
}
