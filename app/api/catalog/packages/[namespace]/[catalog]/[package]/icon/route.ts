// GET /api/catalog/packages/<ns>/<catalog>/<package>/icon?namespace=
// The package's icon with its own cache headers (ETag, a day's max-age); only image types, as
// declared, and SVG under a policy that lets it draw and nothing else (lib/catalog/icon.ts).
import { z } from 'zod';
import { iconVerdict } from '@/lib/catalog/icon';
import { ApiError, dnsLabel, readQuery } from '@/lib/server/api-error';
import { findPackage, PackageParams, parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';
import { catalogIndexOf } from '@/lib/server/fleet/catalog-indexes';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({ namespace: dnsLabel.optional(), v: z.string().max(100).optional() });

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const params = parseParams(PackageParams, await ctx.params);
  const q = readQuery(req.url, Query);
  const { client, lookup } = await findPackage(req, params, q.namespace);
  const icon = await catalogIndexOf(client).icon(client, lookup);
  if (!icon) throw new ApiError(404, 'NotFound', `package ${params.package} has no icon`);
  const verdict = iconVerdict(icon.data, icon.mediatype);
  if (!verdict.ok) throw new ApiError(415, 'UnsupportedMediaType', verdict.message);
  if (req.headers.get('if-none-match') === verdict.etag)
    return new Response(null, { status: 304, headers: verdict.headers });
  return new Response(new Uint8Array(icon.data), { status: 200, headers: verdict.headers });
});
