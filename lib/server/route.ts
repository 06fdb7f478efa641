// One wrapper for every API route handler: whatever a handler throws (a bad request, a Kubernetes
// error, a bug) is answered in the one JSON error shape of api-error.ts, so no route can leak a
// stack or answer an error in a shape of its own, and a handler holds only what is particular to it.
// The sign-in steps a browser navigates (app/api/auth/login, callback) answer with a page, not JSON,
// and keep their own handling. A cluster the request names that only the person's OCM hub lists is
// checked against their hub view here, before the handler (context-cluster.ts).
// `export const dynamic = 'force-dynamic'` stays in each route file: Next.js reads segment options
// from the file's own source, not from an import.
import { errorResponse } from './api-error';
import { admitRequestCluster } from './context-cluster';

/** What Next.js passes a route handler besides the request: the path's [segments]. */
export interface RouteContext {
  params: Promise<Record<string, string>>;
}

/**
 * The handler, with every error it throws answered by `errorResponse`. A handler that reads no path
 * segment keeps its one parameter, so tests call it with the request alone; one that does names its
 * context's type (`RouteContext`), which is how the two are told apart.
 */
export function route<Rest extends [] | [ctx: RouteContext]>(
  handle: (req: Request, ...rest: Rest) => Promise<Response>,
): (req: Request, ...rest: Rest) => Promise<Response> {
  return async (req, ...rest) => {
    try {
      await admitRequestCluster(req);
      return await handle(req, ...rest);
    } catch (err) {
      return errorResponse(err);
    }
  };
}
