// One ClusterExtension's whole picture, read as the person: v1's conditions in words and its
// deprecations, the spec, the installed bundle, the objects it installed with their health and one
// verdict, the versions the catalogs offer from here, and whether the person may change or delete it
// (SelfSubjectAccessReview).
import type { ExtensionDetails } from '../../api/olm-v1-extensions';
import type { KubeClient } from '../../k8s/client';
import { extensionVerdict } from '../../olm/v1/extension-health';
import { extensionDeprecations } from '../../olm/v1/extension-status';
import { accessReview } from '../permissions';
import { extensionObjects } from './extension-objects';
import { extensionRow } from './extension-rows';
import { extensionVersionOptions } from './extension-versions';
import { CLUSTER_EXTENSION_TYPE, OLM_V1_GROUP, type ClusterExtension } from './resources';

export async function extensionDetails(client: KubeClient, name: string): Promise<ExtensionDetails> {
  const ce = await client.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, name);
  const spec = ce.spec;
  const cat = spec?.source?.catalog;
  const bundle = ce.status?.install?.bundle;
  const installed = bundle?.name && bundle.version ? { name: bundle.name, version: bundle.version } : undefined;
  const [found, versions, canUpdate, canDelete] = await Promise.all([
    extensionObjects(client, name, spec?.namespace),
    extensionVersionOptions(client, ce),
    accessReview(client, 'update', OLM_V1_GROUP, 'clusterextensions', undefined, name),
    accessReview(client, 'delete', OLM_V1_GROUP, 'clusterextensions', undefined, name),
  ]);
  const conditions = ce.status?.conditions ?? [];
  return {
    name,
    ...(ce.metadata?.resourceVersion ? { resourceVersion: ce.metadata.resourceVersion } : {}),
    ...(ce.metadata?.generation !== undefined ? { generation: ce.metadata.generation } : {}),
    ...(ce.metadata?.creationTimestamp ? { created: ce.metadata.creationTimestamp } : {}),
    deleting: !!ce.metadata?.deletionTimestamp,
    status: extensionRow(ce).status,
    conditions,
    deprecations: extensionDeprecations(conditions),
    spec: {
      ...(spec?.namespace ? { namespace: spec.namespace } : {}),
      ...(spec?.serviceAccount?.name ? { serviceAccount: spec.serviceAccount.name } : {}),
      ...(cat?.packageName ? { package: cat.packageName } : {}),
      ...(cat?.version ? { version: cat.version } : {}),
      channels: cat?.channels ?? [],
      ...(cat?.selector ? { selector: cat.selector } : {}),
      policy: cat?.upgradeConstraintPolicy ?? 'CatalogProvided',
      ...(spec?.install?.preflight?.crdUpgradeSafety?.enforcement
        ? { crdUpgradeSafety: spec.install.preflight.crdUpgradeSafety.enforcement }
        : {}),
    },
    ...(installed ? { installed } : {}),
    objects: found.objects.sort(
      (a, b) =>
        a.kind.localeCompare(b.kind) ||
        (a.namespace ?? '').localeCompare(b.namespace ?? '') ||
        a.name.localeCompare(b.name),
    ),
    unread: found.unread,
    verdict: extensionVerdict({
      installed: !!installed,
      objects: found.objects,
      unread: found.unread.map((u) => u.kind),
    }),
    versions,
    canUpdate,
    canDelete,
  };
}
