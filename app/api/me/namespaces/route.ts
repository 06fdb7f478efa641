// GET /api/me/namespaces[?candidate=N…]: the namespaces the person can use, as the person
// (lib/server/my-namespaces.ts): OpenShift's projects, every namespace when they may list them,
// else each candidate the browser remembers for them, checked by a SelfSubjectAccessReview.
// Answers MyNamespacesAnswer (lib/api/my-namespaces.ts). Read-only: it creates only reviews.
import { z } from 'zod';
import type { MyNamespacesAnswer } from '@/lib/api/my-namespaces';
import { dnsLabel, readQuery } from '@/lib/server/api-error';
import { requestClient } from '@/lib/server/context';
import { MAX_CANDIDATES, myNamespaces } from '@/lib/server/my-namespaces';
import { route } from '@/lib/server/route';

export const dynamic = 'force-dynamic';

const Query = z.strictObject({
  // One name arrives as a string, several as a list (readQuery): both are read as a list.
  candidate: z
    .preprocess(
      (v) => (typeof v === 'string' ? [v] : v),
      z.array(dnsLabel).max(MAX_CANDIDATES, `at most ${MAX_CANDIDATES} names`),
    )
    .optional(),
});

export const GET = route(async (req) => {
  const q = readQuery(req.url, Query);
  const { client } = requestClient(req);
  const body: MyNamespacesAnswer = await myNamespaces(client, q.candidate ?? []);
  return Response.json(body, { headers: { 'Cache-Control': 'no-store' } });
});
