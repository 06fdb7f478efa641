// GET /api/catalogsources?namespace=N: every CatalogSource the person may see, with health in
// words, packages, the Subscriptions an unhealthy one holds back, and what the person may change
// (SelfSubjectAccessReview). `namespace` is where to look when the person cannot list
// CatalogSources cluster-wide.
// POST /api/catalogsources {namespace, name, source}: adds an image-backed catalog as the person.
import { z } from 'zod';
import { dnsLabel, readJson, readQuery } from '@/lib/server/api-error';
import { applyCatalogSourceChange, CatalogSourceChangeBody } from '@/lib/server/catalog-source-edit';
import { listCatalogSources } from '@/lib/server/catalog-sources';
import { requestClient, writeClient } from '@/lib/server/context';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({ namespace: dnsLabel.optional() });

export const GET = route(async (req) => {
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  return Response.json(await listCatalogSources(client, q.namespace), { headers: { 'Cache-Control': 'no-store' } });
});

const CreateBody = CatalogSourceChangeBody.options[0].omit({ action: true });

export const POST = route(async (req) => {
  const { client } = writeClient(req);
  const body = await readJson(req, CreateBody);
  return Response.json(await applyCatalogSourceChange(client, { action: 'create', ...body }), { status: 201 });
});
