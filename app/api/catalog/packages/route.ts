// GET /api/catalog/packages: OperatorHub's list. Query: q (keywords), catalog (ns/name),
// category, provider, capability, installMode, infrastructureFeature (each repeatable),
// includeNonStandalone, namespace (where to look for catalogs when the person cannot list them
// cluster-wide). Answers the catalogs seen, the facet counts and the ranked, filtered packages.
import { z } from 'zod';
import { applyFilters, facetCounts } from '@/lib/catalog/filter';
import { GLOBAL_CATALOG_NAMESPACES, sharedCatalogIndex } from '@/lib/catalog/catalog-index';
import { searchPackages } from '@/lib/catalog/search';
import { dnsLabel, errorResponse, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';

export const dynamic = 'force-dynamic';


const list = z.union([z.string(), z.array(z.string())]).optional().transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]));
const Query = z.object({
  q: z.string().max(200, 'must be at most 200 characters').optional(),
  namespace: dnsLabel.optional(),
  catalog: list,
  category: list,
  provider: list,
  capability: list,
  installMode: list,
  infrastructureFeature: list,
  includeNonStandalone: z.enum(['true', 'false']).optional(),
});

export async function GET(req: Request): Promise<Response> {
  try {
    const q = readQuery(req.url, Query);
    const { client } = requestClient(req);
    const { catalogs, packages } = await sharedCatalogIndex().forUser(client, [...(q.namespace ? [q.namespace] : []), ...GLOBAL_CATALOG_NAMESPACES]);
    const matched = searchPackages(packages, q.q ?? '').map((h) => h.summary);
    const visible = applyFilters(matched, { includeNonStandalone: q.includeNonStandalone === 'true' });
    const filtered = applyFilters(visible, { ...q, includeNonStandalone: q.includeNonStandalone === 'true' });
    return Response.json({ catalogs, facets: facetCounts(visible), total: filtered.length, packages: filtered }, { headers: { 'Cache-Control': 'no-store' } });
  } catch (err) {
    return errorResponse(err);
  }
}
