// The rights a v1 rollout's installer ServiceAccount needs on every placed cluster: the bundle
// operator-controller would install, resolved and rendered from the hub's own ClusterCatalog of
// the chosen name (the install wizard's facts, lib/server/olm-v1/install-facts.ts), then the
// installer rules of lib/olm/v1/installer-rbac.ts. A managed cluster whose catalog of that name
// serves other content needs other rights: the preview says that this comes from the hub's copy.
import type { KubeClient } from '../../k8s/client';
import type { RolloutChoices } from '../../olm/rollout/choices';
import { installerAccount } from '../../olm/rollout/cluster-objects';
import { installerRbac } from '../../olm/v1/installer-rbac';
import { gatherV1InstallFacts } from '../olm-v1/install-facts';

export async function v1InstallerRights(
  hub: KubeClient,
  c: RolloutChoices,
): Promise<{ objects: Record<string, unknown>[] } | { problem: string }> {
  const { facts } = await gatherV1InstallFacts(hub, {
    catalog: c.catalog.name,
    packageName: c.package,
    name: c.package,
    namespace: c.installNamespace,
    serviceAccount: { name: installerAccount(c), grant: true },
    ...(c.version ? { version: c.version } : {}),
    channels: c.channel ? [c.channel] : [],
    onlyThisCatalog: true,
    upgradeConstraintPolicy: 'CatalogProvided',
  });
  const r = facts.rendered;
  if (!r)
    return {
      problem: `the hub's ClusterCatalog ${c.catalog.name} resolves no bundle of ${c.package} for these choices`,
    };
  if ('error' in r) return { problem: `operator-controller v1.2.0 cannot install this bundle: ${r.error}` };
  if ('unknown' in r) return { problem: `the bundle's manifests cannot be read on the hub: ${r.unknown}` };
  return {
    objects: installerRbac({
      manifests: r.objects as Parameters<typeof installerRbac>[0]['manifests'],
      namespace: c.installNamespace,
      serviceAccount: installerAccount(c),
      extensionName: c.package,
    }),
  };
}
