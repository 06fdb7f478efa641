// GET /api/catalog/packages/<ns>/<catalog>/<package>/graph?channel=&from=&namespace=
// One channel's upgrade graph; with `from` (a version or CSV name) the path OLM walks from there
// to the head, one InstallPlan per step. Catalogs read through PackageManifests have no edges,
// and the answer says so (`edgesKnown: false`) instead of inventing them.
import { z } from 'zod';
import { graphFromManifest, graphFromModel } from '@/lib/catalog/graph-view';
import { dnsLabel, readQuery } from '@/lib/server/api-error';
import { findPackage, PackageParams, parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({
  channel: z.string().min(1).max(253).optional(),
  from: z.string().min(1).max(253).optional(),
  namespace: dnsLabel.optional(),
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const params = parseParams(PackageParams, await ctx.params);
  const q = readQuery(req.url, Query);
  const { lookup } = await findPackage(req, params, q.namespace);
  const view =
    lookup.source === 'registry'
      ? graphFromModel(lookup.pkg, q.channel, q.from)
      : graphFromManifest(lookup.manifest, q.channel);
  return Response.json(view, { headers: { 'Cache-Control': 'no-store' } });
});
