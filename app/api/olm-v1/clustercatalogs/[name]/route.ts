// PATCH /api/olm-v1/clustercatalogs/<name> {seen, availabilityMode?, priority?, pollIntervalMinutes?}:
// enables or disables a ClusterCatalog, or changes its priority or poll interval (null: stop
// polling), as the person, at the generation `seen`: a change to its spec since is a 409.
// DELETE /api/olm-v1/clustercatalogs/<name>?seen=N: deletes it as the person, on the same condition.
import { z } from 'zod';
import { dnsSubdomain, readJson, readQuery } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { changeClusterCatalog, deleteClusterCatalog } from '@/lib/server/olm-v1/cluster-catalog-edit';
import { ChangeBody } from '../schema';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Target = z.strictObject({ name: dnsSubdomain });
const DeleteQuery = z.strictObject({
  seen: z
    .string({ message: 'the generation you saw (?seen=)' })
    .regex(/^\d{1,15}$/, 'the generation you saw (?seen=), a number'),
});

export const PATCH = route(async (req: Request, { params }: RouteContext) => {
  const { client } = writeClient(req);
  const { name } = Target.parse(await params);
  const body = await readJson(req, ChangeBody);
  const cc = await changeClusterCatalog(client, name, body);
  return Response.json({ name, generation: cc.metadata?.generation });
});

export const DELETE = route(async (req: Request, { params }: RouteContext) => {
  const { client } = writeClient(req);
  const { name } = Target.parse(await params);
  const q = readQuery(req.url, DeleteQuery);
  await deleteClusterCatalog(client, name, Number(q.seen));
  return Response.json({ name, deleted: true });
});
