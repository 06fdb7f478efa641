// GET /api/me/pages: which of the console's cluster-wide pages the person may use, each answered
// by a SelfSubjectAccessReview of the read the page rests on, so the navigation hides only what the
// cluster refuses and can say why; a page of an API the cluster does not serve (OLM v1) is refused
// with that reason, found by discovery. Read-only: it creates nothing but the reviews.
import { z } from 'zod';
import type { ClusterPagePath, PageAccess, PageAccessAnswer } from '@/lib/api/page-access';
import { readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import type { KubeClient } from '@/lib/k8s/client';
import { NOT_SERVED } from '@/lib/server/olm-v1/cluster-catalogs';
import { OLM_V1_GROUP, servesOlmV1 } from '@/lib/server/olm-v1/resources';
import { accessReview } from '@/lib/server/permissions';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

interface PageCheck {
  path: ClusterPagePath;
  needs: string;
  verb: string;
  resource: string;
  name?: string;
  /** The API group, when not OLM v0's. */
  group?: string;
  /** An API the cluster may not serve at all (OLM v1): asked first, by discovery. */
  served?: (client: KubeClient) => Promise<boolean>;
  notServed?: string;
}

// The first read each page makes: without it the page shows an error or an empty list.
const OLM = 'operators.coreos.com';
const CHECKS: PageCheck[] = [
  {
    path: '/catalogsources',
    verb: 'list',
    resource: 'catalogsources',
    needs: 'list CatalogSources in every namespace',
  },
  {
    path: '/cluster-upgrade',
    verb: 'list',
    resource: 'clusterserviceversions',
    needs: 'list ClusterServiceVersions in every namespace',
  },
  {
    path: '/settings',
    verb: 'get',
    resource: 'olmconfigs',
    name: 'cluster',
    needs: 'read the OLMConfig named cluster',
  },
  {
    path: '/clustercatalogs',
    verb: 'list',
    group: OLM_V1_GROUP,
    resource: 'clustercatalogs',
    needs: 'list ClusterCatalogs (OLM v1)',
    served: servesOlmV1,
    notServed: NOT_SERVED,
  },
];

const Query = z.strictObject({});

export const GET = route(async (req) => {
  readQuery(req.url, Query);
  const { client } = requestClient(req);
  const pages = await Promise.all(
    CHECKS.map(async (c): Promise<PageAccess> => {
      const page = { path: c.path, needs: c.needs };
      if (c.served && !(await c.served(client))) return { ...page, allowed: false, reason: c.notServed };
      const r = await accessReview(client, c.verb, c.group ?? OLM, c.resource, undefined, c.name);
      return r.allowed ? { ...page, allowed: true } : { ...page, allowed: false, reason: r.reason };
    }),
  );
  const body: PageAccessAnswer = { pages };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
