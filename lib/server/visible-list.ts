// Listing as the person: cluster-wide when RBAC allows it, else namespace by namespace among
// those given, skipping the ones they may not read. One rule for every page that lists.
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import type { ResourceType } from '../olm/resources/common';

export async function listVisible<T extends object>(
  client: KubeClient,
  type: ResourceType,
  namespaces: readonly string[],
): Promise<T[]> {
  try {
    return (await client.listAll<T>(type)).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
  }
  const out: T[] = [];
  for (const ns of new Set(namespaces)) {
    try {
      out.push(...(await client.listAll<T>(type, { namespace: ns })).items);
    } catch (err) {
      if (!isKubeError(err, 403)) throw err;
    }
  }
  return out;
}
