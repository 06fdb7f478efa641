// Images a test builds, and a small HTTPS server that serves them by the distribution API, for
// the bundle image reader's tests (lib/server/bundle-images). Why not the real cluster's registry
// alone: it is go-containerregistry's, which checks every pushed blob against its digest (so it
// cannot serve a wrong one) and has no token authentication, so the token flow and a registry
// that lies need a server of the test's own; the real registry is read in
// bundle-image.cluster.test.ts. The token service here issues a token to anyone (as public
// registries do for anonymous pulls) and the registry answers 401 with a Bearer challenge until
// a request carries it. With `credentials`, the token service gives a token only for them (a
// user and password as Basic, or an identity token by the refresh-token grant), as a private
// repository's does; `basic` makes the registry itself ask for Basic credentials instead.
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { pack, type Header } from 'tar-stream';
import { makeCa, signedCertificate } from '../../../scripts/certificates';

export const sha = (b: Uint8Array) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

export type Entry = { name: string; content?: string } & Partial<Header>;

/** A tar of `entries` (regular files unless a type is given). */
export async function tarOf(entries: readonly Entry[]): Promise<Buffer> {
  const p = pack();
  const chunks: Buffer[] = [];
  p.on('data', (c: unknown) => void chunks.push(c as Buffer));
  const done = new Promise<void>((res) => p.on('end', () => res()));
  for (const { content, ...header } of entries) p.entry({ type: 'file', mode: 0o644, ...header }, content ?? '');
  p.finalize();
  await done;
  return Buffer.concat(chunks);
}

export const gzipLayer = async (entries: readonly Entry[]) => gzipSync(await tarOf(entries));

export interface TestImage {
  manifest: Buffer;
  digest: string;
  blobs: Map<string, Buffer>;
}

/** An image manifest of OCI (or Docker v2) media types over these layers, all gzipped. */
export function imageOf(layers: readonly Buffer[], docker = false): TestImage {
  const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers' } }));
  const blobs = new Map<string, Buffer>([[sha(config), config], ...layers.map((l) => [sha(l), l] as [string, Buffer])]);
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: docker
        ? 'application/vnd.docker.distribution.manifest.v2+json'
        : 'application/vnd.oci.image.manifest.v1+json',
      config: {
        mediaType: docker
          ? 'application/vnd.docker.container.image.v1+json'
          : 'application/vnd.oci.image.config.v1+json',
        digest: sha(config),
        size: config.length,
      },
      layers: layers.map((l) => ({
        mediaType: docker
          ? 'application/vnd.docker.image.rootfs.diff.tar.gzip'
          : 'application/vnd.oci.image.layer.v1.tar+gzip',
        digest: sha(l),
        size: l.length,
      })),
    }),
  );
  return { manifest, digest: sha(manifest), blobs };
}

/** An OCI index naming `images` with their platforms. */
export function indexOf(images: readonly { image: TestImage; platform: string }[]): TestImage {
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests: images.map(({ image, platform }) => ({
        mediaType: 'application/vnd.oci.image.manifest.v1+json',
        digest: image.digest,
        size: image.manifest.length,
        platform: { os: platform.split('/')[0], architecture: platform.split('/')[1] },
      })),
    }),
  );
  return { manifest, digest: sha(manifest), blobs: new Map() };
}

export interface TestRegistry {
  /** `127.0.0.1:PORT` */
  host: string;
  caPem: string;
  /** Manifests by repository and tag or digest, with their media type. */
  manifests: Map<string, { body: Buffer; mediaType: string }>;
  /** Blobs by digest; what is served, whatever its digest. */
  blobs: Map<string, Buffer>;
  /** Requests seen, as `METHOD path`. */
  requests: string[];
  /** The most registry requests (not token requests) answered at once. */
  mostAtOnce: () => number;
  add(repository: string, image: TestImage, tag?: string): void;
  close(): Promise<void>;
}

/**
 * An HTTPS registry on 127.0.0.1 with a certificate from a CA made in `dir`; `token` turns on
 * Bearer auth; `delayMs` holds each registry answer that long (to see how many are asked at once).
 */
export async function startTestRegistry(
  dir: string,
  opts: {
    token?: 'anonymous' | 'refused';
    delayMs?: number;
    credentials?: { username: string; password: string; identityToken?: string };
    basic?: boolean;
  } = {},
): Promise<TestRegistry> {
  makeCa(dir, 'test-ca', 'bundle image test CA');
  signedCertificate(dir, 'registry', 'test-ca', '/CN=registry', 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  const issued = randomBytes(16).toString('hex');
  const manifests = new Map<string, { body: Buffer; mediaType: string }>();
  const blobs = new Map<string, Buffer>();
  const requests: string[] = [];
  let host = '';
  let open = 0;
  let most = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    if (!opts.delayMs || req.url?.startsWith('/token')) return answer(req, res);
    most = Math.max(most, ++open);
    setTimeout(() => {
      open--;
      answer(req, res);
    }, opts.delayMs);
  };
  const basic = opts.credentials
    ? `Basic ${Buffer.from(`${opts.credentials.username}:${opts.credentials.password}`).toString('base64')}`
    : undefined;
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `https://${host}`);
    requests.push(`${req.method} ${url.pathname}`);
    if (url.pathname === '/token' && req.method === 'POST') {
      let form = '';
      req.on('data', (c: Buffer) => (form += c.toString()));
      req.on('end', () => {
        const f = new URLSearchParams(form);
        const ok =
          !!opts.credentials?.identityToken &&
          f.get('grant_type') === 'refresh_token' &&
          f.get('refresh_token') === opts.credentials.identityToken &&
          !!f.get('scope');
        if (!ok) return void res.writeHead(401).end('{"errors":[{"code":"UNAUTHORIZED"}]}');
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ access_token: issued }));
      });
      return;
    }
    if (opts.basic && url.pathname !== '/token' && (!basic || req.headers.authorization !== basic))
      return void res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="test-registry"' }).end();
    if (url.pathname === '/token') {
      if (opts.token === 'refused') return void res.writeHead(401).end('{"errors":[{"code":"UNAUTHORIZED"}]}');
      if (basic && req.headers.authorization !== basic)
        return void res.writeHead(401).end('{"errors":[{"code":"UNAUTHORIZED"}]}');
      const ok = url.searchParams.get('service') === 'test-registry' && !!url.searchParams.get('scope');
      return void res
        .writeHead(ok ? 200 : 400, { 'Content-Type': 'application/json' })
        .end(ok ? JSON.stringify({ token: issued, expires_in: 300 }) : '{}');
    }
    const m = /^\/v2\/(.+)\/(manifests|blobs)\/([^/]+)$/.exec(url.pathname);
    if (opts.token && !opts.basic && req.headers.authorization !== `Bearer ${issued}`) {
      const scope = m ? `repository:${m[1]}:pull` : '';
      return void res
        .writeHead(401, {
          'WWW-Authenticate': `Bearer realm="https://${host}/token",service="test-registry",scope="${scope}"`,
        })
        .end();
    }
    if (!m) return void res.writeHead(404).end();
    if (m[2] === 'manifests') {
      const found = manifests.get(`${m[1]}:${m[3]}`);
      if (!found) return void res.writeHead(404).end();
      return void res.writeHead(200, { 'Content-Type': found.mediaType }).end(found.body);
    }
    const blob = blobs.get(m[3]!);
    if (!blob) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(blob);
  };
  const server = createServer(
    { cert: readFileSync(join(dir, 'registry.crt')), key: readFileSync(join(dir, 'registry.key')) },
    handler,
  );
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    caPem: readFileSync(join(dir, 'test-ca.crt'), 'utf8'),
    manifests,
    blobs,
    requests,
    mostAtOnce: () => most,
    add(repository, image, tag) {
      const mediaType = (JSON.parse(image.manifest.toString()) as { mediaType: string }).mediaType;
      manifests.set(`${repository}:${image.digest}`, { body: image.manifest, mediaType });
      if (tag) manifests.set(`${repository}:${tag}`, { body: image.manifest, mediaType });
      for (const [d, b] of image.blobs) blobs.set(d, b);
    },
    close: () => new Promise<void>((res) => server.close(() => res())),
  };
}
