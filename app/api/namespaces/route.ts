// GET /api/namespaces?namespace=N: the namespaces the person may list, each with its
// OperatorGroups, and which of them are global (one group targeting all namespaces), so an
// install wizard can offer every install mode. A person who may not list namespaces gets the
// one they name, if they may read it.
import { z } from 'zod';
import { isKubeError } from '@/lib/k8s/errors';
import { globalNamespaces } from '@/lib/olm/install-modes/wizard';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '@/lib/olm/resources/operator-group';
import { dnsLabel, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { listVisible } from '@/lib/server/visible-list';
import { NAMESPACE_TYPE } from '@/lib/server/install';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({ namespace: dnsLabel.optional() });

interface NamespaceObject {
  metadata?: { name?: string; labels?: Record<string, string> };
  status?: { phase?: string };
}

export const GET = route(async (req) => {
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  let namespaces: NamespaceObject[];
  let canListAll = true;
  try {
    namespaces = (await client.listAll<NamespaceObject>(NAMESPACE_TYPE)).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    canListAll = false;
    namespaces = [];
    if (q.namespace) {
      try {
        namespaces = [await client.get<NamespaceObject>(NAMESPACE_TYPE, q.namespace)];
      } catch (inner) {
        if (!isKubeError(inner, 403) && !isKubeError(inner, 404)) throw inner;
      }
    }
  }
  const names = namespaces
    .map((n) => n.metadata?.name ?? '')
    .filter(Boolean)
    .sort();
  const groups = await listVisible<OperatorGroup>(client, OPERATOR_GROUP_TYPE, names);
  const byNs = new Map<string, OperatorGroup[]>();
  for (const g of groups) byNs.set(g.metadata?.namespace ?? '', [...(byNs.get(g.metadata?.namespace ?? '') ?? []), g]);
  const phase = new Map(namespaces.map((n) => [n.metadata?.name ?? '', n.status?.phase ?? 'Active']));
  return Response.json(
    {
      canListAll,
      globalNamespaces: globalNamespaces(groups),
      namespaces: names.map((name) => ({
        name,
        phase: phase.get(name),
        operatorGroups: (byNs.get(name) ?? []).map((g) => {
          const t = g.status?.namespaces ?? g.spec?.targetNamespaces ?? [];
          const all = (t.length === 1 && t[0] === '') || (!g.spec?.targetNamespaces?.length && !g.spec?.selector);
          return { name: g.metadata?.name ?? '', targets: all ? 'all' : t };
        }),
      })),
    },
    { headers: { 'Cache-Control': 'no-store' } },
  );
});
