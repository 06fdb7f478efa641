// What depends on a ClusterCatalog, for the confirmation before deleting or disabling it: the
// ClusterExtensions whose resolution uses it. operator-controller resolves a ClusterExtension
// against the catalogs its spec.source.catalog.selector picks (all, without one) that carry its
// package (lib/olm/v1/catalog-selection.ts, docs/olm-v1/resolution.md#catalogs); the installed
// bundle (status.install.bundle) says whether this catalog is where the running version comes from.
// A catalog that is not Serving gives no extension anything: a disabled one is left out of
// resolution, and an Available one catalogd does not serve fails the resolution of every extension
// whose selector picks it; removing it strands no one.
import type { CatalogDependent, CatalogDependentsResponse } from '../../api/olm-v1-catalogs';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { labelSelector, type LabelSelector } from '../../olm/v1/catalog-selection';
import { servedContent } from './cluster-catalogs';
import { CLUSTER_CATALOG_TYPE, CLUSTER_EXTENSION_TYPE, type ClusterCatalog, type ClusterExtension } from './resources';

export async function catalogDependents(client: KubeClient, name: string): Promise<CatalogDependentsResponse> {
  const cc = await client.get<ClusterCatalog>(CLUSTER_CATALOG_TYPE, name);
  const problems: string[] = [];
  let extensions: ClusterExtension[];
  try {
    extensions = (await client.listAll<ClusterExtension>(CLUSTER_EXTENSION_TYPE)).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    return { catalog: name, dependents: [], problems: [`ClusterExtensions could not be read: ${err.message}`] };
  }
  // A catalog catalogd does not serve gives no ClusterExtension anything (operator-controller
  // refuses to resolve against it), so nothing depends on it.
  if (cc.status?.conditions?.find((c) => c.type === 'Serving')?.status !== 'True')
    return { catalog: name, dependents: [], problems };
  const content = await servedContent(client, cc);
  if (!content.summary.read)
    problems.push(
      `its content could not be read (${content.summary.why}), so every extension its selector picks is listed`,
    );
  const labels = cc.metadata?.labels ?? {};
  const dependents: CatalogDependent[] = [];
  for (const ce of extensions) {
    const catalog = ce.spec?.source?.catalog;
    const packageName = catalog?.packageName ?? '';
    const picks = labelSelector(catalog?.selector as LabelSelector | undefined);
    if ('error' in picks || !picks(labels)) continue;
    const installed = ce.status?.install?.bundle?.name;
    const base = { name: ce.metadata?.name ?? '', packageName, ...(installed ? { installedBundle: installed } : {}) };
    if (!content.summary.read) {
      dependents.push({ ...base, why: `its catalog selector picks ${name}` });
      continue;
    }
    const bundles = content.bundles.get(packageName);
    if (!bundles) continue;
    const offers = `its selector picks ${name}, which offers package ${packageName}`;
    if (installed && bundles.has(installed))
      dependents.push({ ...base, why: `its installed bundle ${installed} comes from ${name}` });
    else if (installed) dependents.push({ ...base, why: `${offers}; its installed bundle ${installed} is not in it` });
    else dependents.push({ ...base, why: `${offers}; nothing is installed yet` });
  }
  return { catalog: name, dependents, problems };
}
