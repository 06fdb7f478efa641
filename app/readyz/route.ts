// GET /readyz: whether this replica can serve people: the cluster answers (its /version, asked
// with the console's own identity) and the shared catalog index has something to serve for every
// catalog it read (a catalog served from an earlier read, its last read failed, is listed but
// ready). 503 with the reason otherwise. The HTTP server answers it for any Host (probes
// name the pod's address) and answers 503 itself once it is shutting down.
import { sharedCatalogIndex } from '@/lib/catalog/catalog-index';
import { kubeRequest } from '@/lib/k8s/http';
import { consoleIdentityClient } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const problems: string[] = [];
  try {
    // Not retried: a probe reports the state of the moment, and asks again itself.
    await kubeRequest(consoleIdentityClient().kubeConfig, { method: 'GET', path: '/version', timeoutMs: 3_000, retry: 'none' });
  } catch (err) {
    problems.push(`the cluster does not answer: ${(err as Error).message}`);
  }
  const index = sharedCatalogIndex().health();
  for (const u of index.unusable) problems.push(`catalog ${u.catalog} cannot be read and nothing read before can be served: ${u.problem}`);
  // A catalog served from an earlier read can still serve people: said, not counted against.
  const stale = index.stale.map((s) => `- catalog ${s.catalog} is served as read at ${s.since}; reading it again failed: ${s.problem}`);
  const body = problems.length
    ? `not ready:\n${problems.map((p) => `- ${p}`).join('\n')}\n${stale.length ? `${stale.join('\n')}\n` : ''}`
    : `ok (${index.catalogs} catalogs in the index)\n${stale.join('\n')}${stale.length ? '\n' : ''}`;
  return new Response(body, { status: problems.length ? 503 : 200, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });
}
