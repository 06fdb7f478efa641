// GET /api/catalog/packages/<ns>/<catalog>/<package>?channel=&version=&namespace=
// A package's channels with their versions, and the description of one version (the channel
// head by default), the nodes' platforms for those who may list nodes, and the ClusterCatalogs that
// offer the same package (OLM v1). `namespace` is where to look when the person sees the catalog only there.
import { z } from 'zod';
import { GLOBAL_CATALOG_NAMESPACES } from '@/lib/catalog/catalog-index';
import { detailsFromManifest, detailsFromModel } from '@/lib/catalog/package-details';
import { dnsLabel, readQuery } from '@/lib/server/api-error';
import { nodePlatforms } from '@/lib/server/node-platforms';
import { clusterCatalogsOffering } from '@/lib/server/olm-v1/hub-packages';
import { findPackage, PackageParams, parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';
import { catalogIndexOf } from '@/lib/server/fleet/catalog-indexes';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({
  channel: z.string().min(1).max(253).optional(),
  version: z.string().min(1).max(253).optional(),
  namespace: dnsLabel.optional(),
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const params = parseParams(PackageParams, await ctx.params);
  const q = readQuery(req.url, Query);
  const { client, lookup } = await findPackage(req, params, q.namespace);
  const platforms = await nodePlatforms(client);
  const withPlatforms = <T extends object>(d: T) => (platforms ? { ...d, platforms } : d);
  if (lookup.source === 'packagemanifests')
    return Response.json(withPlatforms(detailsFromManifest(lookup.manifest, q)), {
      headers: { 'Cache-Control': 'no-store' },
    });
  // Pick the version first (cheap, and 404s before any fetch), then its full CSV.
  const brief = detailsFromModel(lookup.pkg, lookup.catalog, q);
  const [csv, clusterCatalogs] = await Promise.all([
    catalogIndexOf(client).fullCsv(
      lookup.address,
      lookup.pkg.name,
      brief.selected.channel,
      brief.selected.csvName,
      lookup.cacheKey,
    ),
    clusterCatalogsOffering(client, params, [...(q.namespace ? [q.namespace] : []), ...GLOBAL_CATALOG_NAMESPACES]),
  ]);
  const details = csv ? detailsFromModel(lookup.pkg, lookup.catalog, q, csv) : brief;
  return Response.json(withPlatforms({ ...details, ...(clusterCatalogs.length ? { clusterCatalogs } : {}) }), {
    headers: { 'Cache-Control': 'no-store' },
  });
});
