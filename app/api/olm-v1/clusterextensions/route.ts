// POST /api/olm-v1/clusterextensions: installs a package as a ClusterExtension, as the person. Plans
// again (never trusting a plan the browser holds) and creates, in order, the Namespace if needed,
// the ServiceAccount, its rights and the ClusterExtension, removing what this request created if a
// later write fails. 201 with what was created and used; 403 / 409 / 422 with the blockers (not
// allowed, the name taken, refused by the API server's validation); a failed write keeps its
// Kubernetes code and reason and says what was undone.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { installV1AsPerson, V1InstallBody } from '@/lib/server/olm-v1/install';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, V1InstallBody);
  return Response.json(await installV1AsPerson(client, body), { status: 201 });
});
