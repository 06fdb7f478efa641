// GET /api/olm-v1/clustercatalogs/<name>/packages/<package>?channel=&version=
// A ClusterCatalog's package, read as the person from the content catalogd serves: its channels
// with their versions, the chosen version's facts (the channel's head by default), the deprecation
// conditions OLM v1 would set for it, the CatalogSources offering the same package, and whether
// the person may create a ClusterExtension. A broken package is a 422 that says what is broken.
import { z } from 'zod';
import { dnsSubdomain, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { v1PackageDetails } from '@/lib/server/olm-v1/package-details';
import { packageName, parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Params = z.strictObject({ name: dnsSubdomain, package: packageName });
const Query = z.strictObject({
  channel: z.string().min(1).max(253).optional(),
  version: z.string().min(1).max(253).optional(),
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const params = parseParams(Params, await ctx.params);
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  const details = await v1PackageDetails(client, params.name, params.package, q);
  return Response.json(details, { headers: { 'Cache-Control': 'no-store' } });
});
