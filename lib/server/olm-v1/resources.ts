// OLM v1's two kinds as the console reads them (olm.operatorframework.io/v1, cluster-scoped; fields
// from operator-controller v1.2.0's api/v1), and the discovery question that says whether the
// cluster runs OLM v1 at all.
import type { KubeClient } from '../../k8s/client';
import type { Condition, KubeObject, LabelSelector, ResourceType } from '../../olm/resources/common';

export const OLM_V1_GROUP = 'olm.operatorframework.io';

export const CLUSTER_CATALOG_TYPE: ResourceType = {
  group: OLM_V1_GROUP,
  version: 'v1',
  plural: 'clustercatalogs',
  namespaced: false,
  kind: 'ClusterCatalog',
};

export const CLUSTER_EXTENSION_TYPE: ResourceType = {
  group: OLM_V1_GROUP,
  version: 'v1',
  plural: 'clusterextensions',
  namespaced: false,
  kind: 'ClusterExtension',
};

export interface ClusterCatalog extends KubeObject {
  spec: {
    source: { type: 'Image'; image?: { ref: string; pollIntervalMinutes?: number } };
    priority?: number;
    availabilityMode?: 'Available' | 'Unavailable';
  };
  status?: {
    conditions?: Condition[];
    resolvedSource?: { type: string; image?: { ref?: string } };
    urls?: { base?: string };
    lastUnpacked?: string;
  };
}

export interface ClusterExtensionCatalogSource {
  packageName?: string;
  version?: string;
  channels?: string[];
  selector?: LabelSelector;
  upgradeConstraintPolicy?: 'CatalogProvided' | 'SelfCertified';
}

export interface ClusterExtension extends KubeObject {
  spec?: {
    namespace?: string;
    serviceAccount?: { name?: string };
    source?: { sourceType?: string; catalog?: ClusterExtensionCatalogSource };
    install?: { preflight?: { crdUpgradeSafety?: { enforcement?: 'None' | 'Strict' } } };
  };
  status?: { conditions?: Condition[]; install?: { bundle?: { name?: string; version?: string } } };
}

/** Whether the cluster serves ClusterCatalogs (its discovery document for olm.operatorframework.io/v1). */
export function servesOlmV1(client: KubeClient): Promise<boolean> {
  return client.serves(CLUSTER_CATALOG_TYPE);
}
