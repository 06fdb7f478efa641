// The names of the objects an operand field may name (Secrets, ConfigMaps in a namespace;
// StorageClasses, PriorityClasses of the cluster), read as the person, for the operand form's
// pickers. Only names leave the server: a Secret's data is never a picker's business. One page is
// read, not every page: a picker with hundreds of names is already one to type into, and each
// page of Secrets carries their data through the console.
import { isClusterNamedKind, type NamedKind, type ObjectNames } from '../api/object-names';
import type { KubeClient } from '../k8s/client';
import { CONFIG_MAP_TYPE, PRIORITY_CLASS_TYPE, SECRET_TYPE, STORAGE_CLASS_TYPE } from '../k8s/core-kinds';
import type { ResourceType } from '../olm/resources/common';

const TYPES: Record<NamedKind, ResourceType> = {
  secrets: SECRET_TYPE,
  configmaps: CONFIG_MAP_TYPE,
  storageclasses: STORAGE_CLASS_TYPE,
  priorityclasses: PRIORITY_CLASS_TYPE,
};

export const MAX_NAMES = 500;

/** `namespace` is ignored for a cluster-scoped kind. */
export async function objectNames(client: KubeClient, kind: NamedKind, namespace?: string): Promise<ObjectNames> {
  const page = await client.list<{ metadata?: { name?: string } }>(TYPES[kind], {
    ...(isClusterNamedKind(kind) ? {} : { namespace }),
    limit: MAX_NAMES,
  });
  const names = page.items
    .map((o) => o.metadata?.name ?? '')
    .filter(Boolean)
    .sort();
  return { names, more: Boolean(page.metadata.continue) };
}
