// GET /api/fleet/rollouts/<namespace>/<name>: one rollout wave by wave, read as the person on the
// hub: each decision group's clusters with their state (waiting, outdated, applying, healthy,
// unhealthy, failed) and status feedback (installed CSV or bundle version), the hub's conditions,
// what could not be read, whether the person may stop it (with the cluster's reason), and what
// OCM v1.0.0 and OLM do not do (no pause, no downgrade).
// DELETE /api/fleet/rollouts/<namespace>/<name>[?uid=UID]: stops it (CSRF as every write): the
// ManifestWorkReplicaSet is deleted, every cluster's ManifestWork goes, the installs stay.
import { z } from 'zod';
import { readQuery } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { readRollout, stopRollout } from '@/lib/server/rollouts/read';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  readQuery(req.url, z.strictObject({}));
  const { client } = requestClient(req);
  return Response.json(await readRollout(client, namespace, name), { headers: { 'Cache-Control': 'no-store' } });
});

export const DELETE = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const q = readQuery(req.url, z.strictObject({ uid: z.string().uuid('must be a uid').optional() }));
  const { client } = writeClient(req);
  await stopRollout(client, namespace, name, q.uid);
  return Response.json({ stopped: `${namespace}/${name}` }, { headers: { 'Cache-Control': 'no-store' } });
});
