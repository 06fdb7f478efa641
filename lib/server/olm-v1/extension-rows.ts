// The ClusterExtensions Installed Operators lists beside OLM v0's CSVs, read as the person. An
// extension is cluster-scoped but installs into spec.namespace, so a namespace's list shows the
// ones that install there. A cluster without OLM v1, or a person who may not list
// ClusterExtensions, gets no rows and no error: the v0 list is unchanged for them.
import type { ExtensionRow } from '../../api/olm-v1-extensions';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { extensionDeprecations, extensionStatus } from '../../olm/v1/extension-status';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';

export function extensionRow(ce: ClusterExtension): ExtensionRow {
  const conditions = ce.status?.conditions ?? [];
  const bundle = ce.status?.install?.bundle;
  const times = conditions.map((c) => c.lastTransitionTime ?? '').filter(Boolean);
  const lastUpdated = [ce.metadata?.creationTimestamp ?? '', ...times].sort().pop() || undefined;
  return {
    name: ce.metadata?.name ?? '',
    ...(ce.spec?.source?.catalog?.packageName ? { package: ce.spec.source.catalog.packageName } : {}),
    ...(ce.spec?.namespace ? { namespace: ce.spec.namespace } : {}),
    ...(bundle?.name ? { bundle: bundle.name } : {}),
    ...(bundle?.version ? { version: bundle.version } : {}),
    status: extensionStatus({
      generation: ce.metadata?.generation,
      deleting: !!ce.metadata?.deletionTimestamp,
      conditions,
      installed: bundle,
    }),
    deprecated: extensionDeprecations(conditions).length > 0,
    ...(lastUpdated ? { lastUpdated } : {}),
  };
}

/** The rows, or null where OLM v1 is not served or the person may not list ClusterExtensions. */
export async function extensionRows(client: KubeClient, namespace: string | undefined): Promise<ExtensionRow[] | null> {
  try {
    if (!(await client.serves(CLUSTER_EXTENSION_TYPE))) return null;
    const list = await client.listAll<ClusterExtension>(CLUSTER_EXTENSION_TYPE);
    return list.items
      .filter((ce) => !namespace || ce.spec?.namespace === namespace)
      .map(extensionRow)
      .sort((a, b) => a.name.localeCompare(b.name));
  } catch (err) {
    if (isKubeError(err, 403)) return null;
    throw err;
  }
}
