// POST /api/subscriptions/<namespace>/<name>/config/ca-bundle { configMap }: on OpenShift, creates
// the ConfigMap the operator's config mounts as its trusted CA bundle, empty and labelled
// config.openshift.io/inject-trusted-cabundle=true so the cluster fills it; as the person. 409
// elsewhere (nothing would fill it) and when it exists (the API server's AlreadyExists).
import { z } from 'zod';
import { dnsSubdomain, readJson } from '@/lib/server/api-error';
import { writeClient } from '@/lib/server/context';
import { objectParams } from '@/lib/server/route-params';
import { createCaBundleConfigMap } from '@/lib/server/subscription-config';
import { route, type RouteContext } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Body = z.strictObject({ configMap: dnsSubdomain });

export const POST = route(async (req: Request, ctx: RouteContext) => {
  const { namespace } = await objectParams(ctx);
  const { client } = writeClient(req);
  const body = await readJson(req, Body);
  return Response.json(await createCaBundleConfigMap(client, namespace, body.configMap), { status: 201 });
});
