// The ClusterCatalog package a route names (`/api/olm-v1/clustercatalogs/<name>/packages/<package>`),
// read as the person: from the ClusterCatalogs they may list, through the content catalogd serves.
// Each way the package can be missing is answered in words a person can act on: no OLM v1 here, no
// such catalog, a catalog disabled or not serving (OLM v1 resolves nothing from it either), content
// that could not be read, a package the catalog lacks, or one whose documents are broken.
import type { KubeClient } from '../../k8s/client';
import type { PackageModel } from '../../olm/fbc/model';
import { ApiError } from '../api-error';
import type { ContentIndex } from './catalog-content';
import { readableCatalogs, type ReadableCatalog } from './readable-catalogs';

export interface V1PackageLookup {
  catalog: ReadableCatalog;
  content: ContentIndex;
  pkg: PackageModel;
}

/** The problems listed at most; the rest are counted, as the catalog's summary does. */
const MAX_PROBLEMS = 10;

/** One line per problem, naming the channel or bundle it is in. */
function problemLines(content: ContentIndex, pkg: string): string[] {
  const all = content.catalog?.problems.get(pkg) ?? [];
  const lines = all.slice(0, MAX_PROBLEMS).map((p) => {
    const where = [
      p.channel !== undefined ? `channel "${p.channel}"` : '',
      p.bundle !== undefined ? `bundle "${p.bundle}"` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return where ? `${where}: ${p.message}` : p.message;
  });
  if (all.length > MAX_PROBLEMS) lines.push(`and ${all.length - MAX_PROBLEMS} more problems`);
  return lines;
}

export async function findV1Package(
  client: KubeClient,
  catalogName: string,
  pkgName: string,
): Promise<V1PackageLookup> {
  const catalogs = await readableCatalogs(client);
  if (!catalogs)
    throw new ApiError(
      404,
      'NotFound',
      'this cluster does not serve olm.operatorframework.io/v1: OLM v1 is not installed',
    );
  const catalog = catalogs.find((c) => c.facts.name === catalogName);
  if (!catalog) throw new ApiError(404, 'NotFound', `there is no ClusterCatalog ${catalogName}`);
  if (catalog.facts.availabilityMode === 'Unavailable')
    throw new ApiError(
      409,
      'Conflict',
      `ClusterCatalog ${catalogName} is disabled (availabilityMode Unavailable): catalogd serves no content for it ` +
        'and OLM v1 installs nothing from it; enable it on the ClusterCatalogs page first',
    );
  const content = await catalog.content;
  if (!content.summary.read)
    throw new ApiError(
      503,
      'ServiceUnavailable',
      `the content of ClusterCatalog ${catalogName} could not be read: ${content.summary.why}`,
    );
  const pkg = content.catalog?.packages.get(pkgName);
  if (pkg) return { catalog, content, pkg };
  const problems = problemLines(content, pkgName);
  if (problems.length)
    throw new ApiError(
      422,
      'Invalid',
      `package ${pkgName} in ClusterCatalog ${catalogName} is broken, so the console does not offer it: ${problems.join('; ')}`,
    );
  throw new ApiError(404, 'NotFound', `ClusterCatalog ${catalogName} has no package ${pkgName}`);
}
