// Kubernetes errors as the browser sees them: the HTTP code, the Status `reason` and the message
// exactly as the API server gave them. A cluster that cannot be reached becomes a 502/503 that
// says what was tried, instead of a bare socket error.

export interface KubeErrorBody {
  code: number;
  reason: string;
  message: string;
  /** Status.details, when the API server sent one (name, kind, causes). */
  details?: unknown;
}

// Next.js may load this module once per route bundle while objects (the shared catalog index)
// live across bundles: `instanceof` asks for a brand every copy of the class sets, not for one
// copy's prototype.
const KUBE_ERROR = Symbol.for('olm-console.KubeError');

export class KubeError extends Error {
  static override [Symbol.hasInstance](v: unknown): boolean {
    return typeof v === 'object' && v !== null && (v as { [KUBE_ERROR]?: boolean })[KUBE_ERROR] === true;
  }
  readonly [KUBE_ERROR] = true;
  readonly code: number;
  readonly reason: string;
  readonly details?: unknown;
  /**
   * Set when nothing answered (the socket error's code: ECONNREFUSED, ECONNRESET, ETIMEDOUT…),
   * so that the retry policy (retry.ts) can tell a refused connection from a server's 503.
   */
  network?: string;
  /** How long the server asked us to wait (`Retry-After`, or Status details.retryAfterSeconds). */
  retryAfterMs?: number;
  /** How many times the request was sent before this error was final (retry.ts). */
  attempts?: number;
  /**
   * An earlier attempt of this request got no clear answer (a 5xx, a reset), so the server may
   * have carried it out: a 409 AlreadyExists after it may be our own create, a 404 our own delete.
   */
  earlierAttemptUncertain?: boolean;

  constructor(body: KubeErrorBody) {
    super(body.message);
    this.name = 'KubeError';
    this.code = body.code;
    this.reason = body.reason;
    this.details = body.details;
  }

  toJSON(): KubeErrorBody {
    return {
      code: this.code,
      reason: this.reason,
      message: this.message,
      ...(this.details === undefined ? {} : { details: this.details }),
    };
  }
}

const reasonsByCode: Record<number, string> = {
  400: 'BadRequest',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'NotFound',
  405: 'MethodNotAllowed',
  406: 'NotAcceptable',
  409: 'Conflict',
  410: 'Expired',
  415: 'UnsupportedMediaType',
  422: 'Invalid',
  429: 'TooManyRequests',
  500: 'InternalError',
  502: 'BadGateway',
  503: 'ServiceUnavailable',
  504: 'Timeout',
};

/** kube-apiserver's words for a path it has no route for, in its Status and in client-go. */
const NO_ROUTE_MESSAGE = 'the server could not find the requested resource';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The error for a non-2xx answer; `body` is the parsed JSON (a metav1.Status) or raw text. */
export function errorFromResponse(httpCode: number, body: unknown, what: string): KubeError {
  if (isRecord(body) && body.kind === 'Status') {
    const err = new KubeError({
      code: typeof body.code === 'number' ? body.code : httpCode,
      reason: typeof body.reason === 'string' && body.reason ? body.reason : (reasonsByCode[httpCode] ?? 'Unknown'),
      message: typeof body.message === 'string' && body.message ? body.message : `${what}: HTTP ${httpCode}`,
      details: body.details,
    });
    const after = isRecord(body.details) ? body.details.retryAfterSeconds : undefined;
    if (typeof after === 'number' && after > 0) err.retryAfterMs = after * 1000;
    return err;
  }
  // kube-apiserver's answer to a path no API it serves has a route for (a group or version the
  // cluster does not serve, a CRD group's unknown resource) is Go's plain "404 page not found",
  // not a Status. It is the same fact as the Status NotFound a built-in group answers, so it reads
  // in the same words, as client-go and kubectl read it.
  if (httpCode === 404 && !isRecord(body))
    return new KubeError({ code: 404, reason: 'NotFound', message: `${what}: ${NO_ROUTE_MESSAGE}` });
  const text = typeof body === 'string' ? body.trim().slice(0, 500) : '';
  return new KubeError({
    code: httpCode,
    reason: reasonsByCode[httpCode] ?? 'Unknown',
    message: text ? `${what}: ${text}` : `${what}: HTTP ${httpCode}`,
  });
}

const unreachableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** The error for a request that got no answer at all. */
export function errorFromNetwork(err: unknown, server: string): KubeError {
  const out = networkError(err, server);
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  out.network = code || (err as Error | undefined)?.name || 'unknown';
  return out;
}

function networkError(err: unknown, server: string): KubeError {
  const e = err as NodeJS.ErrnoException | undefined;
  const code = e?.code ?? '';
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || e?.name === 'TimeoutError') {
    return new KubeError({ code: 504, reason: 'Timeout', message: `the cluster at ${server} did not answer in time` });
  }
  if (unreachableCodes.has(code)) {
    return new KubeError({
      code: 503,
      reason: 'ServiceUnavailable',
      message: `cannot reach the cluster at ${server} (${code})`,
    });
  }
  if (/certificate|self[- ]signed|CERT_|SSL/i.test(`${code} ${e?.message ?? ''}`)) {
    return new KubeError({
      code: 502,
      reason: 'BadGateway',
      message: `TLS with the cluster at ${server} failed: ${e?.message ?? code}`,
    });
  }
  return new KubeError({
    code: 502,
    reason: 'BadGateway',
    message: `request to the cluster at ${server} failed: ${e?.message ?? String(err)}`,
  });
}

export function isKubeError(err: unknown, code?: number): err is KubeError {
  return err instanceof KubeError && (code === undefined || err.code === code);
}
