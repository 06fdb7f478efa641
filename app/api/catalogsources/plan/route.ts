// POST /api/catalogsources/plan {action: create|update|delete|disable|enable, namespace, name, source?, seen?}:
// a dry run of adding, editing, deleting, disabling or enabling a catalog. Answers the exact object (or the spec
// fields that change), the Subscriptions that install from it, what OLM then does, and whether
// the person may do it (SelfSubjectAccessReview). Nothing is written.
import { readJson } from '@/lib/server/api-error';
import { planDisable, planEnable } from '@/lib/server/catalog-source-disable';
import { CatalogSourceChangeBody, planCatalogSourceChange } from '@/lib/server/catalog-source-edit';
import { writeClient } from '@/lib/server/context';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const POST = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, CatalogSourceChangeBody);
  const plan =
    body.action === 'disable'
      ? await planDisable(client, body.namespace, body.name, body.seen)
      : body.action === 'enable'
        ? await planEnable(client, body.namespace, body.name)
        : await planCatalogSourceChange(client, body);
  return Response.json(plan, { headers: { 'Cache-Control': 'no-store' } });
});
