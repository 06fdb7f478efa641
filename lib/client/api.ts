// The browser's side of the console API: reads, and writes that carry the session's CSRF token.
// Errors keep the server's code, reason and message, so a page can show them as they are. Every
// call goes to the page's cluster (lib/client/cluster.tsx), here and nowhere else.
import { apiPath } from './cluster';

export interface ApiErrorBody {
  code: number;
  reason: string;
  message: string;
  details?: unknown;
}

export class ApiClientError extends Error {
  constructor(readonly body: ApiErrorBody) {
    super(body.message);
    this.name = 'ApiClientError';
  }
  get code(): number {
    return this.body.code;
  }
}

async function parse<T>(res: Response, what: string): Promise<T> {
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    const err = (json as { error?: ApiErrorBody } | undefined)?.error;
    throw new ApiClientError(
      err ?? { code: res.status, reason: res.statusText || 'Error', message: `${what} failed with HTTP ${res.status}` },
    );
  }
  return json as T;
}

export async function apiGet<T>(path: string, signal?: AbortSignal): Promise<T> {
  let res: Response;
  try {
    res = await fetch(apiPath(path), { signal, headers: { accept: 'application/json' }, credentials: 'same-origin' });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new ApiClientError({
      code: 0,
      reason: 'NetworkError',
      message: `the console did not answer (${(err as Error).message}); check your connection`,
    });
  }
  return parse<T>(res, `GET ${path}`);
}

export interface SessionInfo {
  mode: 'kubeconfig' | 'token';
  loggedIn: boolean;
  username: string | null;
  csrfToken: string;
  /** Origins catalog descriptions may load images from (`OLM_CONSOLE_IMAGE_ORIGINS`). */
  imageOrigins?: string[];
  /** The person's groups as the API server sees them (SelfSubjectReview), where known. */
  groups?: string[];
  /** How the person signed in: a pasted token, or the identity provider (`--oidc-issuer`). */
  auth?: 'token' | 'oidc';
}

let session: Promise<SessionInfo> | undefined;

/** The session (and its CSRF token), fetched once per page load. */
export function getSession(refresh = false): Promise<SessionInfo> {
  if (!session || refresh) {
    session = apiGet<SessionInfo>('/api/session').catch((err: unknown) => {
      session = undefined;
      throw err;
    });
  }
  return session;
}

export async function apiWrite<T>(
  path: string,
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  body?: unknown,
): Promise<T> {
  const { csrfToken } = await getSession();
  const res = await fetch(apiPath(path), {
    method,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrfToken },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return parse<T>(res, `${method} ${path}`);
}
