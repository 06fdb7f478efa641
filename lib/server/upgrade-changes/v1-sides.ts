// The two bundles of an OLM v1 version change, read as the person: the installed one
// (ClusterExtension status.install.bundle) from the catalogs the extension selects, its objects
// inline or from its image (bundleManifests), with its CRDs as the cluster holds them now, stored
// versions included; and the bundle the change resolves to, the same way. operator-controller
// keeps no copy of a bundle the person can read, so an installed bundle no catalog has any more is
// not known.
import type { KubeClient } from '../../k8s/client';
import { CRD_TYPE } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { BundleObject } from '../../olm/bundle/registry-v1-files';
import type { FbcBundle } from '../../olm/fbc/types';
import { bundleManifests } from '../bundle-images/bundle-manifests';
import { fromManifests, MAX_CRD_READS, refusal, type ReadBundle } from './read-bundle';

/** A bundle of the catalogs, and its CRDs replaced by the cluster's where the person may read them. */
async function withClusterCrds(client: KubeClient, side: ReadBundle): Promise<ReadBundle> {
  if ('unknown' in side) return side;
  const gaps = [...side.gaps];
  let reads = 0;
  const others = await Promise.all(
    side.others.map(async (o): Promise<BundleObject> => {
      if (o.kind !== 'CustomResourceDefinition') return o;
      if (++reads > MAX_CRD_READS) {
        if (reads === MAX_CRD_READS + 1) gaps.push(`only the first ${MAX_CRD_READS} CRDs were read in the cluster`);
        return o;
      }
      const name = String(o.metadata.name ?? '');
      try {
        const live = await client.get<BundleObject>(CRD_TYPE, name);
        return { ...live, apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' };
      } catch (err) {
        if (!isKubeError(err, 403) && !isKubeError(err, 404)) throw err;
        gaps.push(
          `CustomResourceDefinition ${name} cannot be read in the cluster (${refusal(err)}): ` +
            'its stored versions are not known',
        );
        return o;
      }
    }),
  );
  return { ...side, others, gaps };
}

export async function installedV1Bundle(
  client: KubeClient,
  installed: string | undefined,
  bundles: readonly FbcBundle[],
): Promise<ReadBundle> {
  if (!installed) return { unknown: 'nothing is installed yet' };
  const bundle = bundles.find((b) => b.name === installed);
  if (!bundle) return { unknown: `no catalog you may read still has the installed bundle ${installed}` };
  // A ClusterCatalog names no pull secret of its own: the global one and OpenShift's apply.
  return withClusterCrds(client, fromManifests(installed, await bundleManifests(bundle, undefined, { client })));
}

export async function v1TargetBundle(client: KubeClient, bundle: FbcBundle): Promise<ReadBundle> {
  return fromManifests(bundle.name, await bundleManifests(bundle, undefined, { client }));
}
