// GET /api/olm-v1/clustercatalogs/<name>/packages/<package>/graph?channel=
// One channel's upgrade graph of a ClusterCatalog's package (replaces, skips, skipRange, as the
// catalog declares them), read as the person from the content catalogd serves.
import { z } from 'zod';
import { dnsSubdomain, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { v1PackageGraph } from '@/lib/server/olm-v1/package-graph';
import { packageName, parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Params = z.strictObject({ name: dnsSubdomain, package: packageName });
const Query = z.strictObject({ channel: z.string().min(1).max(253).optional() });

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const params = parseParams(Params, await ctx.params);
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  const view = await v1PackageGraph(client, params.name, params.package, q.channel);
  return Response.json(view, { headers: { 'Cache-Control': 'no-store' } });
});
