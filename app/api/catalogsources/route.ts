// GET /api/catalogsources?namespace=N: every CatalogSource the person may see, with health in
// words, packages, and the Subscriptions an unhealthy one holds back. `namespace` is where to
// look when the person cannot list CatalogSources cluster-wide.
import { z } from 'zod';
import { dnsLabel, errorResponse, readQuery } from '@/lib/server/api-error';
import { listCatalogSources } from '@/lib/server/catalog-sources';
import { requestClient } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({ namespace: dnsLabel.optional() });

export async function GET(req: Request): Promise<Response> {
  try {
    const q = readQuery(req.url, Query);
    const { client } = requestClient(req);
    return Response.json(await listCatalogSources(client, q.namespace), { headers: { 'Cache-Control': 'no-store' } });
  } catch (err) {
    return errorResponse(err);
  }
}
