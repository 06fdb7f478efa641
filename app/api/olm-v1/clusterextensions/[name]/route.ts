// GET /api/olm-v1/clusterextensions/<name>: one ClusterExtension as the person reads it — its
// conditions in words, spec, installed bundle, the objects it installed with their health and one
// verdict, the versions the catalogs offer from here, and whether the person may change or delete it.
import { requestClient } from '@/lib/server/context';
import { extensionDetails } from '@/lib/server/olm-v1/extension-details';
import { route, type RouteContext } from '@/lib/server/route';
import { Target } from './schema';

export const dynamic = 'force-dynamic';

export const GET = route(async (req: Request, { params }: RouteContext) => {
  const { client } = requestClient(req);
  const { name } = Target.parse(await params);
  return Response.json(await extensionDetails(client, name));
});
