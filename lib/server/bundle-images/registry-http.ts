// One bounded GET to a registry (or the token service or blob store it sends the console to):
// HTTPS only, the system's CAs plus the configured ones, the address guard of
// registry-address.ts in the connection's lookup, a deadline for the whole exchange and a byte
// limit on the body (a Content-Length over it is refused before reading; a body that grows past
// it is cut). Redirects are followed a few times, as blob stores are usually elsewhere, each
// through the same checks; the person's own identity is never sent, and credentials (a pull
// secret's, or the registry's token) go only to the host they were given for. A CA the cluster's
// image configuration names for one registry is trusted for that registry only.
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import { guardedLookup, literalAddressRefused } from './registry-address';
import type { PullSettings } from './pull-settings';

export interface RegistryAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export class RegistryError extends Error {}

const MAX_REDIRECTS = 5;

export interface GetOptions {
  accept?: string;
  /** A POST of this form (the token service's refresh-token grant); redirects are then not followed. */
  form?: string;
  /** Sent only to `authorizationHost`. */
  authorization?: string;
  authorizationHost?: string;
  maxBytes: number;
  /** What is fetched, for reasons: "the manifest of …". */
  what: string;
}

const hostOf = (u: URL) => u.host.toLowerCase();

function once(url: URL, settings: PullSettings, opts: GetOptions, deadline: number): Promise<RegistryAnswer> {
  return new Promise((resolve, reject) => {
    if (url.protocol !== 'https:')
      return reject(
        new RegistryError(`${opts.what}: ${url.origin} is not HTTPS, and the console pulls over HTTPS only`),
      );
    const allowPrivate = settings.privateRegistries.has(hostOf(url));
    const literal = literalAddressRefused(url.host, url.hostname, allowPrivate);
    if (literal) return reject(new RegistryError(`${opts.what}: ${literal.message}`));
    const headers: Record<string, string> = { 'User-Agent': 'olm-console' };
    if (opts.accept) headers.Accept = opts.accept;
    if (opts.form !== undefined) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      headers['Content-Length'] = String(Buffer.byteLength(opts.form));
    }
    const hostCa = settings.registryCas?.get(hostOf(url));
    if (opts.authorization && opts.authorizationHost === hostOf(url)) headers.Authorization = opts.authorization;
    const remaining = deadline - Date.now();
    if (remaining <= 0) return reject(new RegistryError(`${opts.what}: no answer within the time allowed`));
    const req = request(url, {
      method: opts.form !== undefined ? 'POST' : 'GET',
      headers,
      ca: [...rootCertificates, ...settings.ca, ...(hostCa ? [hostCa] : [])],
      lookup: guardedLookup(url.host, allowPrivate),
      timeout: remaining,
    });
    const timer = setTimeout(
      () => req.destroy(new RegistryError(`${opts.what}: no answer within ${settings.limits.timeoutMs / 1000} s`)),
      remaining,
    );
    req.on('timeout', () =>
      req.destroy(new RegistryError(`${opts.what}: no answer within ${settings.limits.timeoutMs / 1000} s`)),
    );
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err instanceof RegistryError ? err : new RegistryError(`${opts.what}: ${err.message}`));
    });
    req.on('response', (res) => {
      const length = Number(res.headers['content-length']);
      if (Number.isFinite(length) && length > opts.maxBytes) {
        req.destroy(new RegistryError(`${opts.what} is ${length} bytes, over the limit of ${opts.maxBytes}`));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > opts.maxBytes) {
          req.destroy(new RegistryError(`${opts.what} is over the limit of ${opts.maxBytes} bytes`));
          return;
        }
        chunks.push(c);
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), url: url.href });
      });
      res.on('error', (err) => {
        clearTimeout(timer);
        reject(new RegistryError(`${opts.what}: ${err.message}`));
      });
    });
    req.end(opts.form);
  });
}

/** GET `url`, following redirects; the answer of whatever status, or a RegistryError. */
export async function registryGet(url: string, settings: PullSettings, opts: GetOptions): Promise<RegistryAnswer> {
  const deadline = Date.now() + settings.limits.timeoutMs;
  let at = new URL(url);
  for (let i = 0; ; i++) {
    const answer = await once(at, settings, opts, deadline);
    const location = answer.headers.location;
    if (opts.form !== undefined || answer.status < 300 || answer.status >= 400 || typeof location !== 'string')
      return answer;
    if (i === MAX_REDIRECTS) throw new RegistryError(`${opts.what}: more than ${MAX_REDIRECTS} redirects`);
    at = new URL(location, at);
  }
}
