// One cluster under comparison: where it is, its CA, the seed users' tokens, and a raw HTTP
// client (node:https with the cluster's CA) so that both clusters get byte-for-byte the same
// requests.
import { request } from 'node:https';
import { readWatch } from './read-watch';

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
export async function watchEvents(
  t: Target,
  path: string,
  until: (events: { type: string; name?: string }[]) => boolean,
  timeoutMs = 15_000,
): Promise<{ type: string; name?: string }[]> {
  const events: { type: string; name?: string }[] = [];
  await readWatch<{ type: string; object?: { metadata?: { name?: string } } }>(
    t,
    path,
    (e) => {
      events.push({ type: e.type, name: e.object?.metadata?.name });
      return until(events);
    },
    timeoutMs,
    () => events.length > 0,
  );
  return events;
}
