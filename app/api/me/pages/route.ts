// GET /api/me/pages: which of the console's cluster-wide pages the person may use, each answered
// by a SelfSubjectAccessReview of the read the page rests on, so the navigation hides only what the
// cluster refuses and can say why. Read-only: it creates nothing but the reviews.
import { z } from 'zod';
import type { ClusterPagePath, PageAccess, PageAccessAnswer } from '@/lib/api/page-access';
import { readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { accessReview } from '@/lib/server/permissions';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

interface PageCheck {
  path: ClusterPagePath;
  needs: string;
  verb: string;
  resource: string;
  name?: string;
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
];

const Query = z.strictObject({});

export const GET = route(async (req) => {
  readQuery(req.url, Query);
  const { client } = requestClient(req);
  const pages = await Promise.all(
    CHECKS.map(async (c): Promise<PageAccess> => {
      const r = await accessReview(client, c.verb, OLM, c.resource, undefined, c.name);
      const page = { path: c.path, allowed: r.allowed, needs: c.needs };
      return r.allowed ? page : { ...page, reason: r.reason };
    }),
  );
  const body: PageAccessAnswer = { pages };
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
