// POST /api/install/plan: a dry run. Answers exactly the objects the install would create or
// reuse (Namespace, OperatorGroup, Subscription), every warning, and what blocks it; nothing is
// written. The body is the install (see lib/server/install.ts InstallBody).
import { readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { InstallBody } from '@/lib/server/install';
import { planInstallAsPerson } from '@/lib/server/install-plan';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, InstallBody);
  const plan = await planInstallAsPerson(req, client, body);
  return Response.json(plan, { headers: { 'Cache-Control': 'no-store' } });
});
