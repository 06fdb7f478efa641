// GET /api/catalog/packages/<ns>/<catalog>/<package>/brings?channel=&version=&namespace=
// What one version of a CatalogSource's package (the channel head by default) brings into the
// cluster: its cluster-wide and namespaced rules in words, CRDs and versions, webhooks, API
// services, images (lib/olm/bundle/brings.ts), read as the person from the catalog's objects or
// the bundle's image; or `unknown` with the reason. A package or version the person cannot see is
// a 404 saying so. `namespace` is where to look when the person sees the catalog only there.
import { z } from 'zod';
import { dnsLabel, readQuery } from '@/lib/server/api-error';
import { v0PackageBrings } from '@/lib/server/package-brings';
import { PackageParams, parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Params = PackageParams.strict();
const Query = z.strictObject({
  channel: z.string().min(1).max(253).optional(),
  version: z.string().min(1).max(253).optional(),
  namespace: dnsLabel.optional(),
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const params = parseParams(Params, await ctx.params);
  const q = readQuery(req.url, Query);
  return Response.json(await v0PackageBrings(req, params, q), { headers: { 'Cache-Control': 'no-store' } });
});
