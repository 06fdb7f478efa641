// One GET against a real kube-apiserver as a client sees it: what arrives on the wire (the body as
// sent, gzipped when the server chose to), what it decodes to, and how long the whole answer took.
// A list is all-or-nothing for whoever draws it, so the time to the last byte is its time to the
// first tile.
import { request } from 'node:https';
import { gunzipSync } from 'node:zlib';

export interface ListAnswer {
  ms: number;
  status: number;
  /** Content-Encoding the server answered with ('' when none). */
  encoding: string;
  /** Body bytes as they arrived (compressed when encoding is gzip). */
  wireBytes: number;
  /** The body decoded. */
  body: Buffer;
}

export function getWithGzip(server: string, path: string, token: string, caPem: string): Promise<ListAnswer> {
  const url = new URL(path, server);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        ca: caPem,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'accept-encoding': 'gzip' },
        // No keep-alive pool: each call opens its connection, as a console process would on its first request.
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const ms = performance.now() - t0;
          const wire = Buffer.concat(chunks);
          const encoding = String(res.headers['content-encoding'] ?? '');
          const body = encoding === 'gzip' ? gunzipSync(wire) : wire;
          resolve({ ms, status: res.statusCode ?? 0, encoding, wireBytes: wire.length, body });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * The console's OperatorHub list, asked of its route handler in this process as a person with a
 * token: the body and how long the handler took to give it.
 */
export async function consoleList(token: string): Promise<{ ms: number; body: Buffer }> {
  const { GET } = await import('../../app/api/catalog/packages/route');
  const t = performance.now();
  const res = await GET(
    new Request('http://console.local/api/catalog/packages', { headers: { authorization: `Bearer ${token}` } }),
  );
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`console list: ${res.status} ${body.toString().slice(0, 300)}`);
  return { ms: performance.now() - t, body };
}
