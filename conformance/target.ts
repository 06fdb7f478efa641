// One cluster under comparison: where it is, its CA, the seed users' tokens, and a raw HTTP
// client (node:https with the cluster's CA) so that both clusters get byte-for-byte the same
// requests.
import { request } from 'node:https';

export interface Target {
  name: 'sandbox' | 'real';
  url: string;
  ca: string;
  tokens: Record<string, string>;
  kubeconfig: string;
  /** Catalog folder name → its registry's address. */
  registries: Record<string, string>;
}

export interface Answer {
  status: number;
  body: unknown;
  contentType: string;
}

export function call(
  t: Target,
  opts: { user?: string; method?: string; path: string; body?: unknown; contentType?: string; accept?: string },
): Promise<Answer> {
  const u = new URL(opts.path, t.url);
  const payload =
    opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  return new Promise((resolve, reject) => {
    const req = request(
      u,
      {
        method: opts.method ?? 'GET',
        ca: t.ca,
        headers: {
          authorization: `Bearer ${t.tokens[opts.user ?? 'admin']}`,
          accept: opts.accept ?? 'application/json',
          ...(payload === undefined
            ? {}
            : { 'content-type': opts.contentType ?? 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => {
          const contentType = (res.headers['content-type'] ?? '').split(';')[0]!;
          let body: unknown = text;
          if (contentType === 'application/json') {
            try {
              body = JSON.parse(text);
            } catch {
              body = text;
            }
          }
          resolve({ status: res.statusCode ?? 0, body, contentType });
        });
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error(`${t.name}: ${opts.method ?? 'GET'} ${opts.path} timed out`)));
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** A watch: the events (type and object name) seen until `until` returns true or the time is up. */
export function watchEvents(
  t: Target,
  path: string,
  until: (events: { type: string; name?: string }[]) => boolean,
  timeoutMs = 15_000,
): Promise<{ type: string; name?: string }[]> {
  const u = new URL(path, t.url);
  return new Promise((resolve, reject) => {
    const events: { type: string; name?: string }[] = [];
    let buffer = '';
    const req = request(
      u,
      { ca: t.ca, headers: { authorization: `Bearer ${t.tokens.admin}`, accept: 'application/json' } },
      (res) => {
        res.on('data', (d: Buffer) => {
          buffer += d.toString();
          let i: number;
          while ((i = buffer.indexOf('\n')) >= 0) {
            const line = buffer.slice(0, i).trim();
            buffer = buffer.slice(i + 1);
            if (!line) continue;
            const e = JSON.parse(line) as { type: string; object?: { metadata?: { name?: string } } };
            events.push({ type: e.type, name: e.object?.metadata?.name });
            if (until(events)) {
              req.destroy();
              resolve(events);
            }
          }
        });
        res.on('end', () => resolve(events));
      },
    );
    req.on('error', (err) => (events.length ? resolve(events) : reject(err)));
    setTimeout(() => {
      req.destroy();
      resolve(events);
    }, timeoutMs).unref();
    req.end();
  });
}
