// Small HTTP helpers for the API server: Status objects in Kubernetes' shape, JSON bodies.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { decodeKubeProtobuf, encodeKubeProtobuf, isKubeProtobuf } from '../apimachinery/kube-protobuf';
import { errorBody, type FieldError } from '../apimachinery/structural';
import { qualifiedResource } from '../store/store';

export class ApiStatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** A Status as the API server writes it: empty detail fields are left out (Go's omitempty). */
export function statusBody(code: number, reason: string, message: string, details?: Record<string, unknown>) {
  const d = details && Object.fromEntries(Object.entries(details).filter(([, v]) => v !== '' && v !== undefined));
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    ...(d ? { details: d } : {}),
    code,
  };
}

/**
 * kube-apiserver gzips an answer larger than 128 KiB, at level 1, for a request whose
 * Accept-Encoding holds the token `gzip` as it is (k8s.io/apiserver's responsewriters,
 * `defaultGzipThresholdBytes`, `defaultGzipContentEncodingLevel`, `negotiateContentEncoding`;
 * APIResponseCompression is on by default). Smaller answers go as they are.
 */
const GZIP_THRESHOLD_BYTES = 128 * 1024;

function acceptsGzip(res: ServerResponse): boolean {
  const header = res.req?.headers['accept-encoding'];
  return typeof header === 'string' && header.split(',').some((token) => token.trim() === 'gzip');
}

const PROTOBUF = 'application/vnd.kubernetes.protobuf';

/**
 * Whether the client prefers Kubernetes protobuf: its first media type is protobuf with no
 * parameters (kubectl's typed clients ask protobuf first, then anything). A Table or
 * metadata-only request names `as=` and gets JSON, which it also accepts.
 */
function prefersProtobuf(res: ServerResponse): boolean {
  const header = res.req?.headers.accept;
  const first = typeof header === 'string' ? header.split(',')[0]!.trim() : '';
  return first === PROTOBUF;
}

/** The body in protobuf when the client prefers it and Kubernetes defines its kind's message. */
function protobufAnswer(res: ServerResponse, code: number, body: unknown): Buffer | undefined {
  if (code >= 300 || !prefersProtobuf(res) || typeof body !== 'object' || body === null) return undefined;
  try {
    return encodeKubeProtobuf(body as Record<string, unknown>);
  } catch {
    // A stored field that does not fit its message (a CRD-less extension's shape): JSON, which the
    // client accepts too, rather than a failed answer.
    return undefined;
  }
}

export function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const proto = protobufAnswer(res, code, body);
  const text = proto ?? Buffer.from(JSON.stringify(body));
  const gzipped = text.length > GZIP_THRESHOLD_BYTES && acceptsGzip(res);
  const out = gzipped ? gzipSync(text, { level: 1 }) : text;
  res.writeHead(code, {
    'Content-Type': proto ? PROTOBUF : 'application/json',
    'Content-Length': out.length,
    'Cache-Control': 'no-cache, private',
    ...(gzipped ? { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } : {}),
  });
  res.end(out);
}

export function sendStatus(
  res: ServerResponse,
  code: number,
  reason: string,
  message: string,
  details?: Record<string, unknown>,
): void {
  sendJson(res, code, statusBody(code, reason, message, details));
}

/** kube-apiserver's answer to a verb a path does not serve (a create naming an object, a list PUT). */
export function sendMethodNotAllowed(res: ServerResponse): void {
  sendStatus(res, 405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');
}

/**
 * go-restful's answer to a path under a root it owns (/api, a built-in group) that no route serves:
 * empty details (unrouted.ts says which paths get it and which get Go's plain text).
 */
export function sendNoSuchPath(res: ServerResponse): void {
  sendStatus(res, 404, 'NotFound', 'the server could not find the requested resource', {});
}

/** kube-apiserver's NotFound for one object: "<resource>.<group> "<name>" not found", with its details. */
export function sendObjectNotFound(res: ServerResponse, r: { group: string; resource: string }, name: string): void {
  sendStatus(res, 404, 'NotFound', `${qualifiedResource(r)} "${name}" not found`, {
    name,
    group: r.group,
    kind: r.resource,
  });
}

export async function readRawBody(req: IncomingMessage, limit = 8 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > limit) throw new ApiStatusError(413, 'RequestEntityTooLarge', 'the request body is too large');
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function readBody(req: IncomingMessage, limit = 8 * 1024 * 1024): Promise<string> {
  return (await readRawBody(req, limit)).toString('utf8');
}

export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const raw = await readRawBody(req);
  if (isKubeProtobuf(raw)) {
    try {
      return decodeKubeProtobuf(raw);
    } catch (err) {
      throw new ApiStatusError(415, 'UnsupportedMediaType', (err as Error).message);
    }
  }
  const text = raw.toString('utf8');
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new ApiStatusError(400, 'BadRequest', `the request body is not valid JSON: ${(err as Error).message}`);
  }
}

const GENERATE_CHARS = 'bcdfghjklmnpqrstvwxz2456789';

/** Five random characters from Kubernetes' alphabet, as `generateName` appends. */
export function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += GENERATE_CHARS[Math.floor(Math.random() * GENERATE_CHARS.length)];
  return s;
}

/**
 * The name the API server gives for `generateName` `base`: the base cut to 58 characters, then
 * five random ones (apiserver's names.SimpleNameGenerator), so a generated name stays a label.
 */
export function generatedName(base: string): string {
  return `${base.slice(0, 58)}${randomSuffix()}`;
}

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The API server's complaint about a name, or undefined when it is valid. */
export function invalidName(name: string, rule: 'label' | 'subdomain' | 'path-segment'): string | undefined {
  if (rule === 'path-segment') {
    if (name === '.' || name === '..') return `may not be '${name}'`;
    if (/[/%]/.test(name)) return `may not contain '${name.includes('/') ? '/' : '%'}'`;
    return undefined;
  }
  if (rule === 'label') {
    if (name.length > 63 || !DNS1123_LABEL.test(name))
      return `a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`;
    return undefined;
  }
  if (name.length > 253 || !DNS1123_SUBDOMAIN.test(name))
    return `a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;
  return undefined;
}

/**
 * The 422 a write with invalid fields gets (apimachinery's errors.NewInvalid): the kind qualified
 * by its group, the field errors as causes, and in the message one error as it is or several in
 * brackets, each message once.
 */
export function invalidObject(group: string, kind: string, name: string, errs: FieldError[]): ApiStatusError {
  const lines = [...new Set(errs.map((e) => `${e.field}: ${errorBody(e)}`))];
  const what = lines.length === 0 ? '' : lines.length === 1 ? `: ${lines[0]}` : `: [${lines.join(', ')}]`;
  return new ApiStatusError(422, 'Invalid', `${group ? `${kind}.${group}` : kind} "${name}" is invalid${what}`, {
    name,
    group,
    kind,
    causes: errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.field })),
  });
}
