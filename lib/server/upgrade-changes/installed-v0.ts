// The bundle OLM v0 has installed, as the person reads it from the cluster: the Subscription's
// installed CSV and the CRDs it owns, with their status.storedVersions (what the API server has
// written objects in: a version the upgrade drops while it is stored leaves objects OLM cannot
// carry over). The installed CSV is the bundle's as OLM applied it; a CRD the person may not read
// is a gap, named, not a CRD without versions.
import type { KubeClient } from '../../k8s/client';
import { CRD_TYPE } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { BundleObject } from '../../olm/bundle/registry-v1-files';
import { CSV_TYPE, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { MAX_CRD_READS, refusal, type ReadBundle } from './read-bundle';

export async function installedV0Bundle(client: KubeClient, namespace: string, csvName: string): Promise<ReadBundle> {
  let csv: ClusterServiceVersion;
  try {
    csv = await client.get<ClusterServiceVersion>(CSV_TYPE, csvName, namespace);
  } catch (err) {
    if (isKubeError(err, 403) || isKubeError(err, 404))
      return { unknown: `the installed ClusterServiceVersion ${namespace}/${csvName} cannot be read: ${refusal(err)}` };
    throw err;
  }
  const all = [...new Set((csv.spec.customresourcedefinitions?.owned ?? []).map((d) => d.name))];
  const owned = all.slice(0, MAX_CRD_READS);
  const gaps: string[] =
    all.length > owned.length ? [`only the first ${MAX_CRD_READS} of ${all.length} owned CRDs were read`] : [];
  const crds = await Promise.all(
    owned.map(async (name) => {
      try {
        return [await client.get<BundleObject>(CRD_TYPE, name)];
      } catch (err) {
        if (!isKubeError(err, 403) && !isKubeError(err, 404)) throw err;
        gaps.push(
          `CustomResourceDefinition ${name} cannot be read (${refusal(err)}): its installed versions are not known`,
        );
        return [];
      }
    }),
  );
  const withKind = { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'ClusterServiceVersion', ...csv };
  return {
    bundle: csvName,
    source: 'cluster',
    csv: { ...withKind, metadata: { ...(csv.metadata ?? {}) } } as unknown as BundleObject,
    others: crds.flat().map((c) => ({ ...c, apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition' })),
    gaps,
  };
}
