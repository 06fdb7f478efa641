// Every API route answers errors in one JSON shape the UI can show as is:
// `{ error: { code, reason, message, details? } }`. Input problems are 4xx naming the field;
// Kubernetes errors keep the API server's code and reason; anything unexpected is a 500 whose
// message says what failed, never a stack.
import { z } from 'zod';
import { KubeError } from '../k8s/errors';
import { SelectionError } from '../catalog/package-details';

// Branded as KubeError is (lib/k8s/errors.ts): one route bundle may throw what another's catches.
const API_ERROR = Symbol.for('olm-console.ApiError');

export class ApiError extends Error {
  static override [Symbol.hasInstance](v: unknown): boolean {
    return typeof v === 'object' && v !== null && (v as { [API_ERROR]?: boolean })[API_ERROR] === true;
  }
  readonly [API_ERROR] = true;
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ErrorBody {
  error: { code: number; reason: string; message: string; details?: unknown };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((i) => {
      const where = i.path.length ? i.path.map(String).join('.') : 'the request';
      return `${where}: ${i.message}`;
    })
    .join('; ');
}

export function errorBody(err: unknown): ErrorBody {
  if (err instanceof ApiError)
    return {
      error: {
        code: err.code,
        reason: err.reason,
        message: err.message,
        ...(err.details === undefined ? {} : { details: err.details }),
      },
    };
  if (err instanceof KubeError) return { error: err.toJSON() };
  if (err instanceof SelectionError) return { error: { code: 404, reason: 'NotFound', message: err.message } };
  if (err instanceof z.ZodError)
    return { error: { code: 400, reason: 'BadRequest', message: describeIssues(err), details: err.issues } };
  const message = err instanceof Error ? err.message : String(err);
  return { error: { code: 500, reason: 'InternalError', message: `the console failed: ${message}` } };
}

/** An error is about this person's request at this moment: never kept by a browser or a proxy. */
export function errorResponse(err: unknown): Response {
  const body = errorBody(err);
  return Response.json(body, { status: body.error.code, headers: { 'Cache-Control': 'no-store' } });
}

/**
 * How deep a body may nest. JSON.parse takes any depth, but validating and copying a value
 * recurse, and 400,000 levels overflow the stack; no Kubernetes object a person writes comes near.
 */
export const MAX_JSON_DEPTH = 256;

/** Whether a parsed value nests deeper than `max` arrays and objects (walked without recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}

function parseBody(text: string): unknown {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new ApiError(400, 'BadRequest', 'the request body must be JSON');
  }
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH))
    throw new ApiError(400, 'BadRequest', `the request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  return raw;
}

/** Parses a JSON body against a schema; a body that is not JSON or does not fit is a 400. */
export async function readJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const raw = parseBody(await req.text());
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}

/** Like readJson, for routes whose body may be left out: an empty body parses as `{}`. */
export async function readOptionalJson<S extends z.ZodType>(req: Request, schema: S): Promise<z.infer<S>> {
  const text = await req.text();
  const raw: unknown = text.trim() ? parseBody(text) : {};
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}

/** Parses query parameters against a schema (each parameter as a string, or a list when repeated). */
export function readQuery<S extends z.ZodType>(url: string | URL, schema: S): z.infer<S> {
  const params = new URL(url).searchParams;
  const raw: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    raw[key] = all.length > 1 ? all : all[0]!;
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw parsed.error;
  return parsed.data;
}

/** Kubernetes object names (DNS-1123 subdomain) and namespace names (DNS-1123 label). */
export const dnsSubdomain = z
  .string()
  .min(1, 'must not be empty')
  .max(253, 'must be at most 253 characters')
  .regex(
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
    'must be lowercase letters, digits, "-" and ".", starting and ending with a letter or digit',
  );
export const dnsLabel = z
  .string()
  .min(1, 'must not be empty')
  .max(63, 'must be at most 63 characters')
  .regex(
    /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/,
    'must be lowercase letters, digits and "-", starting and ending with a letter or digit',
  );
