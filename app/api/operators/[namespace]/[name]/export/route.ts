// GET /api/operators/<namespace>/<csv>/export[?application=APP][&format=tar]: the installed
// operator as a kustomize tree for Git (cluster-scope/ with the Namespace, OperatorGroup and an
// all-namespaces Subscription; APP/ with a namespaced one), every object cleaned of what the API
// server and OLM write. JSON `{application, files: [{path, content}], notes}`, or with
// format=tar the same files as a tar archive to download.
import { z } from 'zod';
import { tarArchive } from '@/lib/files/tar';
import { dnsLabel, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { exportInstalledOperator } from '@/lib/server/gitops-export';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({
  application: dnsLabel
    .refine(
      (a) => a !== 'cluster-scope',
      "cluster-scope is the cluster administrator's folder; name the application otherwise",
    )
    .optional(),
  format: z.enum(['json', 'tar'], { message: 'format is json or tar' }).optional(),
});

export const GET = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  const out = await exportInstalledOperator(client, namespace, name, q.application);
  if (q.format === 'tar') {
    return new Response(Buffer.from(await tarArchive(out.files)), {
      headers: {
        'Content-Type': 'application/x-tar',
        'Content-Disposition': `attachment; filename="${out.application}-${name}-gitops.tar"`,
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  }
  return Response.json(out, { headers: { 'Cache-Control': 'no-store' } });
});
