// POST /api/fleet/rollouts/preview {choices}: what writing the rollout would do on the hub, asked
// as the person and writing nothing (server-side dry runs): the objects, the clusters the
// Placement picks now, the person's rights for each write, what each cluster's work agent will
// apply, and the blockers. 400 for choices that cannot make a rollout.
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { RolloutBody } from '@/lib/server/rollouts/body';
import { previewRollout } from '@/lib/server/rollouts/preview';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request) => {
  // CSRF-checked as a write: its dry runs are requests the API server judges as creates.
  const { client } = writeClient(req);
  const choices = await readJson(req, RolloutBody);
  return Response.json(await previewRollout(client, choices), { headers: { 'Cache-Control': 'no-store' } });
});
