// Changing ClusterCatalogs as the person: add one from an image reference, enable or disable it
// (availabilityMode), change its priority or poll interval, delete it. Every change is made at the
// generation the person saw, so someone else's change since is a 409 rather than overwritten.
// The API server judges names and image references (its DNS-1123 and CEL rules, from catalogd's
// CRD); its refusal reaches the person with its reason, and nothing is written.
import type { ClusterCatalogChange, ClusterCatalogCreate } from '../../api/olm-v1-catalogs';
import type { KubeClient } from '../../k8s/client';
import { ApiError } from '../api-error';
import { CLUSTER_CATALOG_TYPE, servesOlmV1, type ClusterCatalog } from './resources';
import { NOT_SERVED } from './cluster-catalogs';

async function requireOlmV1(client: KubeClient): Promise<void> {
  if (!(await servesOlmV1(client))) throw new ApiError(404, 'NotFound', NOT_SERVED);
}

/** The catalog as it is now, refused when its spec moved on from the generation the person saw. */
async function readAt(client: KubeClient, name: string, seen: number): Promise<ClusterCatalog> {
  const cc = await client.get<ClusterCatalog>(CLUSTER_CATALOG_TYPE, name);
  const now = cc.metadata?.generation ?? 0;
  if (now !== seen)
    throw new ApiError(
      409,
      'Conflict',
      `ClusterCatalog ${name} changed since you read it (generation ${now}, you saw ${seen}): read it again before changing it`,
    );
  return cc;
}

export async function createClusterCatalog(client: KubeClient, body: ClusterCatalogCreate): Promise<ClusterCatalog> {
  await requireOlmV1(client);
  const image: { ref: string; pollIntervalMinutes?: number } = { ref: body.imageRef };
  if (body.pollIntervalMinutes !== undefined) image.pollIntervalMinutes = body.pollIntervalMinutes;
  return client.create<ClusterCatalog>(CLUSTER_CATALOG_TYPE, {
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterCatalog',
    metadata: { name: body.name },
    spec: {
      source: { type: 'Image', image },
      ...(body.priority !== undefined ? { priority: body.priority } : {}),
    },
  });
}

export async function changeClusterCatalog(
  client: KubeClient,
  name: string,
  change: ClusterCatalogChange,
): Promise<ClusterCatalog> {
  await requireOlmV1(client);
  if (
    change.availabilityMode === undefined &&
    change.priority === undefined &&
    change.pollIntervalMinutes === undefined
  )
    throw new ApiError(400, 'BadRequest', 'nothing to change: give availabilityMode, priority or pollIntervalMinutes');
  const cc = await readAt(client, name, change.seen);
  const spec = structuredClone(cc.spec);
  if (change.availabilityMode !== undefined) spec.availabilityMode = change.availabilityMode;
  if (change.priority !== undefined) spec.priority = change.priority;
  if (change.pollIntervalMinutes !== undefined) {
    if (!spec.source.image)
      throw new ApiError(400, 'BadRequest', `pollIntervalMinutes: ClusterCatalog ${name} has no image source to poll`);
    if (change.pollIntervalMinutes === null) delete spec.source.image.pollIntervalMinutes;
    else spec.source.image.pollIntervalMinutes = change.pollIntervalMinutes;
  }
  // The whole object back at the resourceVersion read: a write in between is the API server's 409.
  return client.replace<ClusterCatalog>(CLUSTER_CATALOG_TYPE, { ...cc, spec });
}

export async function deleteClusterCatalog(client: KubeClient, name: string, seen: number): Promise<void> {
  await requireOlmV1(client);
  const cc = await readAt(client, name, seen);
  await client.delete(CLUSTER_CATALOG_TYPE, name, {
    ...(cc.metadata?.uid ? { uid: cc.metadata.uid } : {}),
    ...(cc.metadata?.resourceVersion ? { resourceVersion: cc.metadata.resourceVersion } : {}),
  });
}
