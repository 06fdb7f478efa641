// GET /api/olm-v1/clustercatalogs/<name>/packages/<package>/brings?channel=&version=
// What one version of a ClusterCatalog's package (the channel head by default) brings into the
// cluster: its cluster-wide and namespaced rules in words, CRDs and versions, webhooks, API
// services, images (lib/olm/bundle/brings.ts), read as the person from the content catalogd serves
// and the bundle's inline objects or image; or `unknown` with the reason. A catalog, package or
// version the person cannot see is a 404 saying which.
import { z } from 'zod';
import { dnsSubdomain, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { v1PackageBrings } from '@/lib/server/olm-v1/package-brings';
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
  const answer = await v1PackageBrings(client, params.name, params.package, q);
  return Response.json(answer, { headers: { 'Cache-Control': 'no-store' } });
});
