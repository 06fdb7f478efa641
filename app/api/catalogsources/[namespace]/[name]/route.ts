// PUT /api/catalogsources/<ns>/<name> {source, seen}: edits an image-backed catalog as the person
// (image, display name, publisher, priority, polling interval; every other field kept), at the
// generation `seen` (metadata.generation): someone else's change to the spec since is a 409.
// DELETE /api/catalogsources/<ns>/<name>?seen=RV: deletes it as the person, on the same condition.
import { z } from 'zod';
import { dnsLabel, errorResponse, readJson, readQuery } from '@/lib/server/api-error';
import { applyCatalogSourceChange, CatalogSourceUpdateBody } from '@/lib/server/catalog-source-edit';
import { writeClient } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

type Params = { params: Promise<{ namespace: string; name: string }> };
const Target = z.strictObject({ namespace: dnsLabel, name: dnsLabel });
const DeleteQuery = z.strictObject({
  seen: z
    .string({ message: 'the generation you saw (?seen=)' })
    .regex(/^\d+$/, 'the generation you saw (?seen=), a number'),
});

export async function PUT(req: Request, { params }: Params): Promise<Response> {
  try {
    const { client } = writeClient(req);
    const target = Target.parse(await params);
    const body = await readJson(req, CatalogSourceUpdateBody);
    return Response.json(await applyCatalogSourceChange(client, { action: 'update', ...target, ...body }));
  } catch (err) {
    return errorResponse(err);
  }
}

export async function DELETE(req: Request, { params }: Params): Promise<Response> {
  try {
    const { client } = writeClient(req);
    const target = Target.parse(await params);
    const q = readQuery(req.url, DeleteQuery);
    return Response.json(await applyCatalogSourceChange(client, { action: 'delete', ...target, seen: q.seen }));
  } catch (err) {
    return errorResponse(err);
  }
}
