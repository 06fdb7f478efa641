// The sandbox's own image registry: the pull side of the OCI distribution specification, over
// HTTPS with the sandbox's certificate (its CA), on 127.0.0.1.
//
//   GET/HEAD /v2/                                  200 `{}`: the API is here
//   GET/HEAD /v2/<name>/manifests/<tag or digest>  the manifest, with its Content-Type and
//                                                  Docker-Content-Digest
//   GET/HEAD /v2/<name>/blobs/<digest>             the blob, with Docker-Content-Digest
//   DELETE   /v2/<name>/manifests/<tag or digest>  202: that reference no longer resolves
//   PUT      /v2/<name>/manifests/<tag or digest>  201 with Docker-Content-Digest: the manifest
//                                                  stored under its digest (and the tag)
//   GET      /token?service=…&scope=…              registry-auth.ts
//
// Anything unknown is 404 with the specification's error body (`{"errors":[{"code":
// "MANIFEST_UNKNOWN"|"BLOB_UNKNOWN"|"NAME_UNKNOWN", …}]}`); other methods are 405 `UNSUPPORTED`.
// The sandbox builds its images itself (bundle-image-layout.ts) and takes no blob uploads; a
// manifest can be deleted and put back, as on the real cluster's registry (go-containerregistry's,
// whose DELETE and PUT answer 202 and 201), so that an image can go missing and return: a pull of
// an image whose manifest is gone fails (bundle-store.ts). One repository needs a token
// (registry-auth.ts). The images live in memory; they are made again from the catalogs at each
// start, byte for byte, so their digests do not change.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { closingCuts } from '../server/server-closing';
import type { AddressInfo } from 'node:net';
import type { BuiltImage } from './bundle-image-layout';
import { RegistryAuth, unauthorized } from './registry-auth';

const DIGEST = /^sha256:[a-f0-9]{64}$/;
const NAME = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*$/;
const TAG = /^[\w][\w.-]{0,127}$/;
/** The largest manifest put back that is kept (the images are in memory): 4 MiB, as the console reads. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

interface Repository {
  tags: Map<string, string>;
  manifests: Map<string, { body: Buffer; mediaType: string }>;
}

export interface ImageRegistry {
  /** host:port, as image references name it. */
  host: string;
  origin: string;
  auth: RegistryAuth;
  /** Adds an image to `repository`, under `tag` when given; its reference by digest. */
  add(repository: string, image: BuiltImage, tag?: string): string;
  /** The image a reference by digest on this registry names, if it holds it. */
  imageFor(reference: string): BuiltImage | undefined;
  stop(): Promise<void>;
}

const errorBody = (code: string, message: string, detail: unknown = null) =>
  JSON.stringify({ errors: [{ code, message, detail }] });

export async function startImageRegistry(opts: {
  tls: { key: string; cert: string };
  auth: RegistryAuth;
  host?: string;
  port?: number;
}): Promise<ImageRegistry> {
  const repos = new Map<string, Repository>();
  const blobs = new Map<string, Buffer>();
  const images = new Map<string, BuiltImage>();
  let origin = '';

  const send = (
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    headers: Record<string, string>,
    body: Buffer | string,
  ) => {
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    res.writeHead(status, {
      'Docker-Distribution-API-Version': 'registry/2.0',
      'Content-Length': String(bytes.length),
      ...headers,
    });
    res.end(req.method === 'HEAD' ? undefined : bytes);
  };
  const fail = (req: IncomingMessage, res: ServerResponse, status: number, code: string, message: string) =>
    send(req, res, status, { 'Content-Type': 'application/json' }, errorBody(code, message));

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://registry.invalid');
    const path = url.pathname;
    if (path === '/token') {
      if (req.method !== 'GET') return fail(req, res, 405, 'UNSUPPORTED', 'the token endpoint answers GET');
      const answer = opts.auth.token(req.headers.authorization, url.searchParams);
      return send(req, res, answer.status, { 'Content-Type': 'application/json' }, JSON.stringify(answer.body));
    }
    const write = req.method === 'DELETE' || req.method === 'PUT';
    if (req.method !== 'GET' && req.method !== 'HEAD' && !write)
      return fail(req, res, 405, 'UNSUPPORTED', 'this registry answers GET, HEAD, and DELETE and PUT of a manifest');
    if (path === '/v2/' || path === '/v2') return send(req, res, 200, { 'Content-Type': 'application/json' }, '{}');
    const m = /^\/v2\/(.+)\/(manifests|blobs)\/([^/]+)$/.exec(path);
    if (!m || !NAME.test(m[1]!)) return fail(req, res, 404, 'NAME_UNKNOWN', 'repository name not known to registry');
    const [, name, kind, ref] = m as unknown as [string, string, string, string];
    if (write && kind !== 'manifests')
      return fail(req, res, 405, 'UNSUPPORTED', 'blobs are not uploaded here: the sandbox builds its images');
    // A manifest may be put into a repository not yet held; anything else needs one.
    if (!repos.has(name) && req.method !== 'PUT')
      return fail(req, res, 404, 'NAME_UNKNOWN', `repository ${name} not known to registry`);
    if (opts.auth.needsToken(name) && !opts.auth.allows(req.headers.authorization, name)) {
      res.setHeader('WWW-Authenticate', opts.auth.challenge(origin, name));
      return send(
        req,
        res,
        401,
        { 'Content-Type': 'application/json' },
        JSON.stringify(unauthorized('authentication required')),
      );
    }
    if (req.method === 'PUT') return putManifest(req, res, name, ref);
    const repo = repos.get(name)!;
    if (req.method === 'DELETE') {
      // The reference goes, as go-containerregistry's registry deletes it; the image's blobs stay.
      const gone = DIGEST.test(ref) ? repo.manifests.delete(ref) : repo.tags.delete(ref);
      if (!gone) return fail(req, res, 404, 'MANIFEST_UNKNOWN', `manifest unknown: ${name}:${ref}`);
      return send(req, res, 202, {}, '');
    }
    if (kind === 'manifests') {
      const digest = DIGEST.test(ref) ? ref : TAG.test(ref) ? repo.tags.get(ref) : undefined;
      const manifest = digest ? repo.manifests.get(digest) : undefined;
      if (!digest || !manifest) return fail(req, res, 404, 'MANIFEST_UNKNOWN', `manifest unknown: ${name}:${ref}`);
      return send(
        req,
        res,
        200,
        { 'Content-Type': manifest.mediaType, 'Docker-Content-Digest': digest },
        manifest.body,
      );
    }
    // A blob is served only through a repository that holds an image using it.
    const blob = DIGEST.test(ref) && [...repo.manifests.keys()].some((d) => images.get(d)?.blobs.has(ref));
    if (!blob) return fail(req, res, 404, 'BLOB_UNKNOWN', `blob unknown to registry: ${ref}`);
    return send(
      req,
      res,
      200,
      { 'Content-Type': 'application/octet-stream', 'Docker-Content-Digest': ref },
      blobs.get(ref)!,
    );
  };

  /** A manifest put back (or a new one): stored under the digest of its bytes, and the tag if named by one. */
  const putManifest = (req: IncomingMessage, res: ServerResponse, name: string, ref: string) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_MANIFEST_BYTES) chunks.push(c);
    });
    req.on('end', () => {
      if (size > MAX_MANIFEST_BYTES)
        return fail(req, res, 413, 'SIZE_INVALID', `a manifest is at most ${MAX_MANIFEST_BYTES} bytes here`);
      const body = Buffer.concat(chunks);
      const digest = `sha256:${createHash('sha256').update(body).digest('hex')}`;
      if (DIGEST.test(ref) && ref !== digest)
        return fail(req, res, 400, 'DIGEST_INVALID', `provided digest ${ref} did not match the content (${digest})`);
      if (!DIGEST.test(ref) && !TAG.test(ref)) return fail(req, res, 400, 'TAG_INVALID', `invalid tag: ${ref}`);
      const mediaType = String(req.headers['content-type'] ?? '');
      let repo = repos.get(name);
      if (!repo) repos.set(name, (repo = { tags: new Map(), manifests: new Map() }));
      repo.manifests.set(digest, { body, mediaType });
      if (!DIGEST.test(ref)) repo.tags.set(ref, digest);
      send(req, res, 201, { 'Docker-Content-Digest': digest }, '');
    });
  };

  const server: Server = createServer({ key: opts.tls.key, cert: opts.tls.cert }, handle);
  const closeServer = closingCuts(server);
  const host = opts.host ?? '127.0.0.1';
  await new Promise<void>((res, rej) => {
    const onError = (err: NodeJS.ErrnoException) => {
      // The port the last start had is taken: any free one, as the first start had.
      if (err.code === 'EADDRINUSE' && opts.port) server.listen(0, host, () => res());
      else rej(err);
    };
    server.once('error', onError);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', onError);
      res();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostPort = `${host}:${port}`;
  origin = `https://${hostPort}`;

  return {
    host: hostPort,
    origin,
    auth: opts.auth,
    add(repository, image, tag) {
      if (!NAME.test(repository)) throw new Error(`registry: ${repository} is not a repository name`);
      let repo = repos.get(repository);
      if (!repo) repos.set(repository, (repo = { tags: new Map(), manifests: new Map() }));
      repo.manifests.set(image.digest, { body: image.manifest, mediaType: image.mediaType });
      if (tag) repo.tags.set(tag, image.digest);
      for (const [d, b] of image.blobs) blobs.set(d, b);
      images.set(image.digest, image);
      return `${hostPort}/${repository}@${image.digest}`;
    },
    imageFor(reference) {
      const at = reference.lastIndexOf('@');
      if (at < 0 || !reference.startsWith(`${hostPort}/`)) return undefined;
      const repository = reference.slice(hostPort.length + 1, at);
      const digest = reference.slice(at + 1);
      return repos.get(repository)?.manifests.has(digest) ? images.get(digest) : undefined;
    },
    stop: async () => {
      await closeServer();
    },
  };
}
