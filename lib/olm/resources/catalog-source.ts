// CatalogSource (operators.coreos.com/v1alpha1), docs/olm/catalogs.md#catalogsource.
import { OLM_GROUP, type Condition, type KubeObject, type ResourceType } from './common';

/** The port OLM's catalog pods serve the registry gRPC API on (its Service's port too). */
export const CATALOG_REGISTRY_PORT = 50051;
/** The label OLM puts on a CatalogSource's pod, naming the CatalogSource. */
export const CATALOG_SOURCE_POD_LABEL = 'olm.catalogSource';

export const CATALOG_SOURCE_TYPE: ResourceType = {
  group: OLM_GROUP,
  version: 'v1alpha1',
  plural: 'catalogsources',
  namespaced: true,
  kind: 'CatalogSource',
};

/** gRPC connectivity states as OLM records them; only READY is healthy. */
export type ConnectionState = 'IDLE' | 'CONNECTING' | 'READY' | 'TRANSIENT_FAILURE' | 'SHUTDOWN';

export interface CatalogSource extends KubeObject {
  spec: {
    sourceType: 'grpc' | 'configmap' | 'internal' | string;
    address?: string;
    image?: string;
    configMap?: string;
    priority?: number;
    displayName?: string;
    description?: string;
    publisher?: string;
    icon?: { base64data: string; mediatype: string };
    secrets?: string[];
    updateStrategy?: { registryPoll?: { interval?: string } };
    grpcPodConfig?: Record<string, unknown>;
  };
  status?: {
    reason?: string;
    message?: string;
    latestImageRegistryPoll?: string;
    configMapReference?: Record<string, unknown>;
    registryService?: {
      protocol?: string;
      serviceName?: string;
      serviceNamespace?: string;
      port?: string;
      createdAt?: string;
    };
    connectionState?: { address?: string; lastObservedState: ConnectionState | string; lastConnect?: string };
    conditions?: Condition[];
  };
}

export function isCatalogReady(cs: CatalogSource): boolean {
  return cs.status?.connectionState?.lastObservedState === 'READY';
}

/**
 * A community catalog: its operators come without the cluster vendor's support (OpenShift's
 * `community-operators`, and any catalog that names itself community). Consoles ask for an
 * acknowledgement before installing from one.
 */
export function isCommunityCatalog(c: { name: string; displayName?: string; publisher?: string }): boolean {
  return `${c.name} ${c.displayName ?? ''} ${c.publisher ?? ''}`.toLowerCase().includes('community');
}
