// GET /api/olm-v1/clustercatalogs/<name>/dependents: the ClusterExtensions whose resolution uses the
// catalog (its selector picks it and it carries their package; whether the installed bundle is
// in it), read as the person, for the confirmation before deleting or disabling it; `problems`
// says what could not be read, so the list may be short.
import { z } from 'zod';
import { dnsSubdomain, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { catalogDependents } from '@/lib/server/olm-v1/catalog-dependents';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Target = z.strictObject({ name: dnsSubdomain });
const Query = z.strictObject({});

export const GET = route(async (req: Request, { params }: RouteContext) => {
  readQuery(req.url, Query);
  const { client } = requestClient(req);
  const { name } = Target.parse(await params);
  return Response.json(await catalogDependents(client, name), { headers: { 'Cache-Control': 'no-store' } });
});
