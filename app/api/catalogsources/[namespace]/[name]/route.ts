// PUT /api/catalogsources/<ns>/<name> {source, seen}: edits an image-backed catalog as the person
// (image, display name, publisher, priority, polling interval; every other field kept), at the
// generation `seen` (metadata.generation): someone else's change to the spec since is a 409.
// DELETE /api/catalogsources/<ns>/<name>?seen=RV: deletes it as the person, on the same condition.
import { z } from 'zod';
import { dnsLabel, readJson, readQuery } from '@/lib/server/api-error';
import { applyCatalogSourceChange, CatalogSourceUpdateBody } from '@/lib/server/catalog-source-edit';
import { writeClient } from '@/lib/server/context';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Target = z.strictObject({ namespace: dnsLabel, name: dnsLabel });
const DeleteQuery = z.strictObject({
  seen: z
    .string({ message: 'the generation you saw (?seen=)' })
    .regex(/^\d+$/, 'the generation you saw (?seen=), a number'),
});

export const PUT = route(async (req: Request, { params }: RouteContext) => {
  const { client } = writeClient(req);
  const target = Target.parse(await params);
  const body = await readJson(req, CatalogSourceUpdateBody);
  return Response.json(await applyCatalogSourceChange(client, { action: 'update', ...target, ...body }));
});

export const DELETE = route(async (req: Request, { params }: RouteContext) => {
  const { client } = writeClient(req);
  const target = Target.parse(await params);
  const q = readQuery(req.url, DeleteQuery);
  return Response.json(await applyCatalogSourceChange(client, { action: 'delete', ...target, seen: q.seen }));
});
