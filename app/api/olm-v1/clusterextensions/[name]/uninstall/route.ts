// GET /api/olm-v1/clusterextensions/<name>/uninstall: what uninstalling it deletes — its CRDs with
// their instances counted in the whole cluster as the person (or why a count could not be made) —
// the ServiceAccount and `<name>-installer` roles and bindings the console's install made for it,
// which the person may delete too or keep, and what looks like the install's but is not offered, why.
// POST /api/olm-v1/clusterextensions/<name>/uninstall {seen, confirm, alsoDelete}: deletes it as the
// person at the generation `seen` (409 when its spec changed), `confirm` being its name typed, then
// the access objects chosen, each judged again first (400, nothing deleted, when one is not
// offered). Answers {name, access: [{kind, name, namespace?, outcome, message?}]}.
import { z } from 'zod';
import { readJson } from '@/lib/server/api-error';
import { requestClient, writeClient } from '@/lib/server/context';
import { extensionUninstallPreview, uninstallExtension } from '@/lib/server/olm-v1/extension-uninstall';
import { AccessObject } from '@/lib/server/olm-v1/install-access';
import { route, type RouteContext } from '@/lib/server/route';
import { Target } from '../schema';

export const dynamic = 'force-dynamic';

const Body = z.strictObject({
  seen: z
    .number({ message: 'the generation you saw' })
    .int('the generation you saw, a whole number')
    .min(0, 'the generation you saw')
    .max(Number.MAX_SAFE_INTEGER, 'the generation you saw'),
  confirm: z.string({ message: 'the extension’s name, typed to confirm' }).max(253),
  // The same schema the preview's offers pass: whatever it offers, this accepts.
  alsoDelete: z.array(AccessObject).max(50, 'at most 50 objects').default([]),
});

export const GET = route(async (req: Request, { params }: RouteContext) => {
  const { client } = requestClient(req);
  const { name } = Target.parse(await params);
  return Response.json(await extensionUninstallPreview(client, name));
});

export const POST = route(async (req: Request, { params }: RouteContext) => {
  const { client } = writeClient(req);
  const { name } = Target.parse(await params);
  const body = await readJson(req, Body);
  return Response.json(await uninstallExtension(client, name, body));
});
