// GET /readyz: whether this replica can serve people, which is whether the cluster answers (its
// /version, asked with the console's own identity). The HTTP server answers it for any Host and
// without a login (probes name the pod's address), and answers 503 itself once it is stopping.
// The body names nothing: not the API server's address, no namespace, no catalog. Why the cluster
// did not answer is logged instead; a catalog the index cannot read is not this replica's problem
// (every replica would fail alike) and is told on the Catalogs page to those who may see it.
import { kubeRequest } from '@/lib/k8s/http';
import { logger } from '@/lib/observability/logger';
import { consoleIdentityClient } from '@/lib/server/context';

export const dynamic = 'force-dynamic';

const HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' };

/** The last failure logged: a probe asks every few seconds, and the log says each change once. */
let lastProblem: string | undefined;

export async function GET(): Promise<Response> {
  try {
    // Not retried: a probe reports the state of the moment, and asks again itself.
    const client = consoleIdentityClient();
    await kubeRequest(client.kubeConfig, { method: 'GET', path: '/version', timeoutMs: 3_000, retry: 'none' });
  } catch (err) {
    const problem = (err as Error).message;
    if (problem !== lastProblem) logger().warn({ err: problem }, 'readiness: the cluster does not answer');
    lastProblem = problem;
    return new Response('not ready: the cluster does not answer\n', { status: 503, headers: HEADERS });
  }
  if (lastProblem !== undefined) logger().info('readiness: the cluster answers again');
  lastProblem = undefined;
  return new Response('ok\n', { status: 200, headers: HEADERS });
}
