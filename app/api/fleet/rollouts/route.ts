// GET /api/fleet/rollouts: the console's rollouts on the hub (the home cluster), read as the
// person: {rollouts: [{name, namespace, generation, set, package, olm, conditions, summary,
// timedOut}], notes}.
// POST /api/fleet/rollouts {choices}: previews again and writes the rollout on the hub as the
// person (CSRF as every write): the hub namespace and cluster-set bindings it lacks, the
// Placement, the ManifestWorkReplicaSet. 409 with the preview's blockers when any; {written, preview}.
import { z } from 'zod';
import { readJson, readQuery } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { RolloutBody } from '@/lib/server/rollouts/body';
import { listRollouts } from '@/lib/server/rollouts/read';
import { writeRollout } from '@/lib/server/rollouts/write';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req: Request) => {
  readQuery(req.url, z.strictObject({}));
  const { client } = requestClient(req);
  return Response.json(await listRollouts(client), { headers: { 'Cache-Control': 'no-store' } });
});

export const POST = route(async (req: Request) => {
  const { client } = writeClient(req);
  const choices = await readJson(req, RolloutBody);
  return Response.json(await writeRollout(client, choices), { status: 201, headers: { 'Cache-Control': 'no-store' } });
});
