// POST /api/fleet/rollouts/export[?format=tar] {choices}: the rollout's hub objects as a
// kustomize tree for Git ({files: [{path, content}], blockers}), or a tar archive of them; the
// same objects the preview would write, with the same blockers named (an export is not refused
// for lacking the rights to write it: Git may apply it with other rights).
import { z } from 'zod';
import { tarArchive } from '@/lib/files/tar';
import { readJson, readQuery } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { rolloutFiles } from '@/lib/olm/rollout/export';
import { RolloutBody } from '@/lib/server/rollouts/body';
import { previewRollout } from '@/lib/server/rollouts/preview';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request) => {
  const q = readQuery(
    req.url,
    z.strictObject({ format: z.enum(['json', 'tar'], { message: 'format is json or tar' }).optional() }),
  );
  const { client } = writeClient(req);
  const choices = await readJson(req, RolloutBody);
  const preview = await previewRollout(client, choices);
  const files = rolloutFiles(preview.objects.map((o) => o.object));
  if (q.format === 'tar')
    return new Response(Buffer.from(await tarArchive(files)), {
      headers: {
        'Content-Type': 'application/x-tar',
        'Content-Disposition': `attachment; filename="rollout-${choices.name}-gitops.tar"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  return Response.json({ files, blockers: preview.blockers }, { headers: { 'Cache-Control': 'no-store' } });
});
