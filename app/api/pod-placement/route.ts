// GET /api/pod-placement: what the install wizard's configuration section needs of the cluster:
// whether it has OpenShift's Proxy API and, if the person may read them, the proxy OLM passes to
// every operator it deploys and the nodes (labels, taints) the operator's pods could run on.

import { requestClient } from '@/lib/server/context';
import { podPlacementFacts } from '@/lib/server/subscription-config';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

export const GET = route(async (req) => {
  const { client } = requestClient(req);
  return Response.json(await podPlacementFacts(client), { headers: { 'Cache-Control': 'no-store' } });
});
