// The HTTP client openid-client uses to reach the issuer when its certificate chains to a CA of
// its own: node:https with that CA, for these requests only (NODE_EXTRA_CA_CERTS would make every
// connection of the process, the cluster's included, trust it).
import { request } from 'node:https';

type FetchOptions = { body?: unknown; headers: Record<string, string>; method: string; signal?: AbortSignal };
type FetchLike = (url: string, options: FetchOptions) => Promise<Response>;

export function fetchWithCa(caPem: string): FetchLike {
  return (url, options) =>
    new Promise<Response>((resolve, reject) => {
      const { method, headers: sent, signal } = options;
      const req = request(url, { method, headers: sent, ca: caPem, signal, timeout: 10_000 }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) {
            if (v !== undefined) for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
          }
          const status = res.statusCode ?? 502;
          const body = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(body, { status, headers }));
        });
      });
      req.on('timeout', () => req.destroy(new Error(`no answer from ${new URL(url).origin} within 10 s`)));
      req.on('error', reject);
      const body = options.body;
      if (body === undefined || body === null) req.end();
      else if (body instanceof URLSearchParams || typeof body === 'string') req.end(body.toString());
      else req.end(Buffer.from(body as ArrayBuffer));
    });
}
