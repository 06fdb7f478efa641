// POST /api/olm-v1/clusterextensions/plan: a dry run of installing a package as a ClusterExtension.
// The body is the install (lib/server/olm-v1/install.ts V1InstallBody). Answers the package's
// channels and versions in the catalog, the objects the install would create or use (Namespace,
// ServiceAccount, the account's rights, the ClusterExtension), the bundle v1 resolves to now or its
// error, warnings and blockers in v1's and the cluster's words; nothing is written. When an
// extension of that name exists, its conditions (so the wizard can follow an install it made).
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { planV1InstallAsPerson, V1InstallBody } from '@/lib/server/olm-v1/install';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, V1InstallBody);
  return Response.json(await planV1InstallAsPerson(client, body), { headers: { 'Cache-Control': 'no-store' } });
});
