// An answer compressed once and served many times. The console's server compresses every answer
// as it goes out (console-server.ts), which for a big cached body — OperatorHub's list, 800 KB of
// JSON at 1,180 packages — meant gzipping the same bytes again on every request: the profile of
// fifty people browsing put compression at 8% of the replica's CPU. A body kept in a cache keeps
// its compressed forms beside it, made the first time a client asks for each.
//
// Next.js drops a route's Content-Encoding (and Content-Length) on the way out, since a body it
// fetched may have been decoded under them. So a route names its body's coding in a header of the
// console's own, and the console's server, which alone decides about compression, turns it into
// Content-Encoding and leaves that answer uncompressed (`declaredEncoding`).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type StoredEncoding = 'br' | 'gzip';

/** The header a route names its already compressed body's coding in, for the console's server. */
export const STORED_ENCODING_HEADER = 'X-Olm-Console-Content-Encoding';

/**
 * For the server, as the head is written: the coding a route declared for its body (taken off the
 * answer, set as Content-Encoding), or undefined when it declared none. Only a route sets it; a
 * value other than the two stored codings is dropped and the body goes out as it is.
 */
export function declaredEncoding(res: {
  getHeader(name: string): unknown;
  setHeader(name: string, value: string): unknown;
  removeHeader(name: string): void;
}): StoredEncoding | undefined {
  const declared = res.getHeader(STORED_ENCODING_HEADER);
  if (declared === undefined) return undefined;
  res.removeHeader(STORED_ENCODING_HEADER);
  const value = String(Array.isArray(declared) ? declared[0] : declared);
  if (value !== 'br' && value !== 'gzip') return undefined;
  res.setHeader('Content-Encoding', value);
  return value;
}

// Made once per content and then served many times, so a slower, smaller setting pays: brotli at
// quality 9 and gzip at level 9 take tens of milliseconds for 800 KB, against 11's seconds.
const BROTLI_QUALITY = 9;
const GZIP_LEVEL = 9;

/** A text body with its compressed forms, each made when first asked for and then kept. */
export class EncodedBody {
  private readonly forms = new Map<StoredEncoding, Buffer>();
  private plain?: Buffer;

  constructor(readonly text: string) {}

  bytes(encoding?: StoredEncoding): Buffer {
    if (!encoding) return (this.plain ??= Buffer.from(this.text));
    let form = this.forms.get(encoding);
    if (!form) {
      const plain = this.bytes();
      form =
        encoding === 'br'
          ? brotliCompressSync(plain, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: plain.length,
              },
            })
          : gzipSync(plain, { level: GZIP_LEVEL });
      this.forms.set(encoding, form);
    }
    return form;
  }
}

/**
 * The stored encoding this Accept-Encoding allows, brotli first (smaller), or none. A coding is
 * refused by `;q=0`, and `*` stands for any coding not named (RFC 9110, 12.5.3).
 */
export function chooseEncoding(acceptEncoding: string | null | undefined): StoredEncoding | undefined {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=(.*)$/.exec(p)?.[1]?.trim()).find((v) => v !== undefined);
    // A weight that is no number is read as a refusal: nothing is sent in a coding not clearly asked for.
    const weight = q === undefined ? 1 : /^[0-9.]+$/.test(q) ? Number(q) : 0;
    weights.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (c: StoredEncoding) => weights.get(c) ?? weights.get('*') ?? 0;
  const best = (['br', 'gzip'] as const).filter((c) => weightOf(c) > 0);
  return best.sort((a, b) => weightOf(b) - weightOf(a))[0];
}

/**
 * Whether If-None-Match names this ETag: a list, `*`, and weak comparison (a weak tag matches its
 * strong twin), as RFC 9110 13.1.2 asks of GET.
 */
export function notModified(ifNoneMatch: string | null | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (t: string) => t.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((t) => t.trim() === '*' || opaque(t) === opaque(etag));
}

/**
 * The answer to a GET for a stored body: 304 when the client holds this ETag, else the body in the
 * best encoding the client accepts, declared in STORED_ENCODING_HEADER for the server. The ETag is
 * weak, so one tag serves every encoding (the representations differ in bytes, not meaning); Vary
 * tells caches the encoding was chosen by Accept-Encoding.
 */
export function storedBodyResponse(
  req: Request,
  body: EncodedBody,
  etag: string,
  headers: Record<string, string>,
): Response {
  const common = { ...headers, ETag: etag, Vary: 'Accept-Encoding' };
  if (notModified(req.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers: common });
  const encoding = chooseEncoding(req.headers.get('accept-encoding'));
  const bytes = body.bytes(encoding);
  return new Response(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), {
    status: 200,
    headers: {
      ...common,
      ...(encoding ? { [STORED_ENCODING_HEADER]: encoding } : {}),
    },
  });
}
