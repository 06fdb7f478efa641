// POST /api/install/plan: a dry run. Answers exactly the objects the install would create or
// reuse (Namespace, OperatorGroup, Subscription), every warning, and what blocks it; nothing is
// written. The body is the install (see lib/server/install.ts InstallBody).
import { planInstall } from '@/lib/olm/install/plan';
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { gatherInstallFacts, InstallBody, step } from '@/lib/server/install';
import { findPackage } from '@/lib/server/package-lookup';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, InstallBody);
  const { lookup } = await step(
    `finding package ${body.package} in catalog ${body.catalog.namespace}/${body.catalog.name}`,
    () =>
      findPackage(
        req,
        { namespace: body.catalog.namespace, catalog: body.catalog.name, package: body.package },
        body.viewerNamespace ?? body.namespace,
      ),
  );
  const plan = planInstall(await gatherInstallFacts(client, lookup, body));
  return Response.json(plan, { headers: { 'Cache-Control': 'no-store' } });
});
