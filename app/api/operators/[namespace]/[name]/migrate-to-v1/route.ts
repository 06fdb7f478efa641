// POST /api/operators/<namespace>/<csv>/migrate-to-v1 {}: moves the operator from OLM v0 to OLM v1
// as the person, planned again on the server: marks the objects v1 will adopt, deletes the
// Subscription and (orphaning what it owns) the CSV, creates the ClusterExtension pinned to the
// installed version and waits for it to be Installed, then removes v0's leftovers. A step that
// fails is rolled back as far as it can be; the answer says what was not restored. 409 with the
// reasons when it cannot move, 403 when the person may not make one of the writes. Its plan is
// POST …/migrate-to-v1/plan {}. `bundleDigest`, the digest the plan showed for a bundle read from
// its image, makes the move refuse (409) when the bundle now reads from another.
import { z } from 'zod';
import { readOptionalJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { applyMigration } from '@/lib/server/olm-v1/migration-apply';
import { objectParams } from '@/lib/server/route-params';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace, name } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readOptionalJson(
    req,
    z.strictObject({
      bundleDigest: z
        .string()
        .regex(/^sha256:[a-f0-9]{64}$/, 'not a sha256 digest')
        .optional(),
    }),
  );
  return Response.json(await applyMigration(client, namespace, name, { bundleDigest: body.bundleDigest }));
});
