// POST /api/catalogsources/<ns>/<name>/enable {}: makes a catalog the console disabled again, as
// the person, from its record in ConfigMap olm-console-disabled-catalogs, then removes the record.
import { z } from 'zod';
import { dnsLabel, readJson } from '@/lib/server/api-error';
import { applyEnable } from '@/lib/server/catalog-source-disable';
import { writeClient } from '@/lib/server/context';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Target = z.strictObject({ namespace: dnsLabel, name: dnsLabel });

export const POST = route(async (req: Request, { params }: RouteContext) => {
  const { client } = writeClient(req);
  const target = Target.parse(await params);
  await readJson(req, z.strictObject({}));
  return Response.json(await applyEnable(client, target.namespace, target.name));
});
