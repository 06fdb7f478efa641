// POST /api/catalogsources/<ns>/<name>/enable {}: makes a catalog the console disabled again, as
// the person, from its record in ConfigMap olm-console-disabled-catalogs, then removes the record.
import { z } from 'zod';
import { dnsLabel, errorResponse, readJson } from '@/lib/server/api-error';
import { applyEnable } from '@/lib/server/catalog-source-disable';
import { writeClient } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

const Target = z.strictObject({ namespace: dnsLabel, name: dnsLabel });

export async function POST(
  req: Request,
  { params }: { params: Promise<{ namespace: string; name: string }> },
): Promise<Response> {
  try {
    const { client } = writeClient(req);
    const target = Target.parse(await params);
    await readJson(req, z.strictObject({}));
    return Response.json(await applyEnable(client, target.namespace, target.name));
  } catch (err) {
    return errorResponse(err);
  }
}
