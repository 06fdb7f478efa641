// The ClusterCatalogs as the person reads them, with their content, in the two shapes the console
// needs: every catalog for browsing (OperatorHub lists what each serves), and the walk
// operator-controller makes for one package (lib/olm/v1/catalog-selection.ts picks the catalogs a
// selector names, lib/olm/v1/resolve.ts picks the bundle), so a preview resolves as v1 will.
import type { KubeClient } from '../../k8s/client';
import type { PackageModel } from '../../olm/fbc/model';
import { selectCatalogs, type CatalogFacts, type LabelSelector } from '../../olm/v1/catalog-selection';
import type { CatalogPackage } from '../../olm/v1/resolve';
import type { ContentIndex } from './catalog-content';
import { servedContent } from './cluster-catalogs';
import { CLUSTER_CATALOG_TYPE, servesOlmV1, type ClusterCatalog } from './resources';

/** What catalog selection reads of a ClusterCatalog (operator-controller lists them with its own identity). */
export function catalogFacts(cc: ClusterCatalog): CatalogFacts {
  return {
    name: cc.metadata?.name ?? '',
    labels: cc.metadata?.labels ?? {},
    priority: cc.spec?.priority ?? 0,
    availabilityMode: cc.spec?.availabilityMode,
    serving: cc.status?.conditions?.find((c) => c.type === 'Serving')?.status === 'True',
    resolvedRef: cc.status?.resolvedSource?.image?.ref,
  };
}

export interface ReadableCatalog {
  catalog: ClusterCatalog;
  facts: CatalogFacts;
  /** The content where catalogd serves it (cached by address, digest and unpack time), or why not. */
  content: Promise<ContentIndex>;
}

/**
 * Every ClusterCatalog the person may list, in list order (by name, as the API server lists
 * them), or null where the cluster does not serve OLM v1. A person who may not list them gets the
 * API server's refusal, which callers keep.
 */
export async function readableCatalogs(client: KubeClient): Promise<ReadableCatalog[] | null> {
  if (!(await servesOlmV1(client))) return null;
  const list = await client.listAll<ClusterCatalog>(CLUSTER_CATALOG_TYPE);
  return list.items.map((cc) => ({ catalog: cc, facts: catalogFacts(cc), content: servedContent(client, cc) }));
}

/** One catalog's part in resolving a package: what resolve.ts reads, and the package's model to show. */
export interface PackageInCatalog {
  pkg: CatalogPackage;
  /** The package's model where it is healthy in that catalog (for channels, graphs, bundle content). */
  model?: PackageModel;
}

/**
 * The catalogs operator-controller would walk for a package under a selector, each with the
 * package's documents (empty where the catalog lacks it) or the error that fails the resolution.
 * A catalog whose content the console could not read counts as operator-controller's cache miss.
 */
export async function packageInCatalogs(
  catalogs: readonly ReadableCatalog[],
  packageName: string,
  selector?: LabelSelector,
): Promise<PackageInCatalog[] | { error: string }> {
  const selected = selectCatalogs(
    catalogs.map((c) => c.facts),
    selector,
  );
  if ('error' in selected) return selected;
  return Promise.all(
    selected.map(async (s): Promise<PackageInCatalog> => {
      if ('error' in s) return { pkg: { catalog: s.name, priority: 0, fbc: { error: s.error } } };
      const content = await catalogs.find((c) => c.facts.name === s.name)!.content;
      if (!content.summary.read)
        return { pkg: { catalog: s.name, priority: s.priority, fbc: { error: content.summary.why } } };
      const fbc = content.configs.get(packageName) ?? {
        packages: [],
        channels: [],
        bundles: [],
        deprecations: [],
        others: [],
      };
      return { pkg: { catalog: s.name, priority: s.priority, fbc }, model: content.catalog?.packages.get(packageName) };
    }),
  );
}
