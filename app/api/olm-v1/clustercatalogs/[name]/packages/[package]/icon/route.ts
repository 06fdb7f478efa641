// GET /api/olm-v1/clustercatalogs/<name>/packages/<package>/icon?v=
// A ClusterCatalog package's icon, from the content catalogd serves (the olm.package document's
// icon), read as the person, served as the CatalogSources' icons are: only image types, as
// declared, SVG under a policy that lets it draw and nothing else, with an ETag (lib/catalog/icon.ts).
import { z } from 'zod';
import { iconVerdict } from '@/lib/catalog/icon';
import { ApiError, dnsSubdomain, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { findV1Package } from '@/lib/server/olm-v1/package-lookup';
import { packageName, parseParams } from '@/lib/server/package-lookup';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Params = z.strictObject({ name: dnsSubdomain, package: packageName });
const Query = z.strictObject({ v: z.string().max(100).optional() });

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const params = parseParams(Params, await ctx.params);
  readQuery(req.url, Query);
  const { client } = requestClient(req);
  const { pkg } = await findV1Package(client, params.name, params.package);
  const data = pkg.icon?.base64data ? Buffer.from(pkg.icon.base64data, 'base64') : undefined;
  if (!data?.length) throw new ApiError(404, 'NotFound', `package ${params.package} has no icon`);
  const verdict = iconVerdict(data, pkg.icon!.mediatype);
  if (!verdict.ok) throw new ApiError(415, 'UnsupportedMediaType', verdict.message);
  if (req.headers.get('if-none-match') === verdict.etag)
    return new Response(null, { status: 304, headers: verdict.headers });
  return new Response(new Uint8Array(data), { status: 200, headers: verdict.headers });
});
