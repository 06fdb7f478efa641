// POST /api/catalogsources/<ns>/<name>/disable {seen}: disables a catalog of a global catalog
// namespace as the person, where OLM has no switch: its definition recorded in ConfigMap
// olm-console-disabled-catalogs, then the CatalogSource deleted at the generation `seen` (a 409
// when its spec changed since); a failed delete takes the record back out.
import { z } from 'zod';
import { dnsLabel, readJson } from '@/lib/server/api-error';
import { applyDisable } from '@/lib/server/catalog-source-disable';
import { DisableBody } from '@/lib/server/catalog-source-edit';
import { writeClient } from '@/lib/server/context';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Target = z.strictObject({ namespace: dnsLabel, name: dnsLabel });

export const POST = route(async (req: Request, { params }: RouteContext) => {
  const { client } = writeClient(req);
  const target = Target.parse(await params);
  const body = await readJson(req, DisableBody);
  return Response.json(await applyDisable(client, target.namespace, target.name, body.seen));
});
