// ClusterCatalogs in the sandbox as catalogd v1.2.0 answers: the finalizer, Serving/Progressing with
// its reasons and messages, resolvedSource by digest, urls.base, lastUnpacked, Unavailable, unknown
// images and deletion; kubectl's printer columns; and the content API over HTTPS. Expectations are
// from internal/catalogd/controllers/core/clustercatalog_controller.go, internal/catalogd/storage/
// localdir.go and Go's net/http ServeContent (file references in docs/olm-v1/catalogs.md).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import { withSandbox } from '../testing/sandbox-fixture';
import { writeFixtureCatalog } from '../testing/fbc-fixture';
import { kubectl, kubectlPath } from './testing/kubectl';

type Cond = { type: string; status: string; reason: string; message: string; observedGeneration?: number };
type CC = {
  metadata: { name: string; finalizers?: string[]; labels?: Record<string, string>; generation: number };
  status?: {
    conditions?: Cond[];
    resolvedSource?: { type: string; image: { ref: string } };
    urls?: { base: string };
    lastUnpacked?: string;
  };
};

interface Answer {
  code: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function fetchRaw(url: string, ca: string, opts: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(url, { ca, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ code: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('ClusterCatalogs and catalogd content', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  const dir = mkdtempSync(join(tmpdir(), 'olm-v1-catalog-'));
  const catalogDir = join(dir, 'acme');
  const extraDir = join(dir, 'extra');
  const ccRes = () => sb.api.resources.find('olm.operatorframework.io', 'v1', 'clustercatalogs')!;
  const get = (name: string) => sb.api.storeGet(ccRes(), undefined, name) as unknown as CC | undefined;
  const cond = (cc: CC | undefined, type: string) => cc?.status?.conditions?.find((c) => c.type === type);
  const create = async (name: string, ref: string, extra: Record<string, unknown> = {}) => {
    sb.api.createObject(ccRes(), {
      apiVersion: 'olm.operatorframework.io/v1',
      kind: 'ClusterCatalog',
      metadata: { name },
      spec: { source: { type: 'Image', image: { ref } }, ...extra },
    });
    await sb.olmV1.settled();
  };

  before(async () => {
    writeFixtureCatalog(catalogDir, [{ name: 'acme', bundles: [{ version: '1.0.0' }, { version: '1.1.0' }] }]);
    writeFixtureCatalog(extraDir, [{ name: 'tiny', bundles: [{ version: '0.1.0' }] }]);
    sb = await withSandbox({ catalogs: [catalogDir], catalogImages: { 'quay.io/example/extra:v1': extraDir } });
    await sb.olmV1.settled();
  });
  after(() => sb.close());

  test('a seeded catalog is a Serving ClusterCatalog with the finalizer, label, digest and URL', () => {
    const cc = get('acme');
    assert.ok(cc, 'the --catalog folder became a ClusterCatalog');
    assert.deepEqual(cc.metadata.finalizers, ['olm.operatorframework.io/delete-server-cache']);
    assert.equal(cc.metadata.labels?.['olm.operatorframework.io/metadata.name'], 'acme');
    assert.deepEqual(cond(cc, 'Serving'), {
      ...cond(cc, 'Serving'),
      status: 'True',
      reason: 'Available',
      message: 'Serving desired content from resolved source',
      observedGeneration: 1,
    });
    assert.deepEqual(
      { ...cond(cc, 'Progressing'), lastTransitionTime: undefined },
      {
        type: 'Progressing',
        status: 'True',
        reason: 'Succeeded',
        message: 'Successfully unpacked and stored content from resolved source',
        observedGeneration: 1,
        lastTransitionTime: undefined,
      },
    );
    assert.match(
      cc.status!.resolvedSource!.image.ref,
      /^sandbox\.olm-console\.dev\/catalogs\/acme@sha256:[0-9a-f]{64}$/,
    );
    assert.equal(cc.status!.urls!.base, `${sb.olmV1.contentUrl}/catalogs/acme`);
    assert.match(cc.status!.lastUnpacked!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  });

  test('/api/v1/all serves sorted-key JSON lines with Last-Modified; 304, HEAD, gzip, 404 and 405', async () => {
    const base = get('acme')!.status!.urls!.base;
    const all = await fetchRaw(`${base}/api/v1/all`, sb.caPem);
    assert.equal(all.code, 200);
    assert.equal(all.headers['content-type'], 'application/jsonl');
    assert.equal(all.headers['accept-ranges'], 'bytes');
    assert.equal(all.headers.vary, 'Accept-Encoding');
    const lines = all.body.toString().trimEnd().split('\n');
    const first = JSON.parse(lines[0]!) as Record<string, unknown>;
    assert.equal(first.schema, 'olm.package');
    for (const line of lines) {
      const keys = Object.keys(JSON.parse(line) as object);
      assert.deepEqual(keys, [...keys].sort(), 'keys are sorted as Go writes a map');
      assert.ok(!line.includes('\n') && !line.includes(': '), 'compact JSON');
    }
    assert.ok(lines.some((l) => JSON.parse(l).schema === 'olm.bundle' && l.includes('acme.v1.1.0')));
    const modified = all.headers['last-modified'] as string;
    assert.match(modified, /GMT$/);

    const again = await fetchRaw(`${base}/api/v1/all`, sb.caPem, { headers: { 'If-Modified-Since': modified } });
    assert.equal(again.code, 304);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers['content-type'], undefined);

    const head = await fetchRaw(`${base}/api/v1/all`, sb.caPem, { method: 'HEAD' });
    assert.equal(head.code, 200);
    assert.equal(head.headers['content-length'], String(all.body.length));
    assert.equal(head.body.length, 0);

    const gz = await fetchRaw(`${base}/api/v1/all`, sb.caPem, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gz.headers['accept-ranges'], undefined);
    assert.deepEqual(gunzipSync(gz.body), all.body);

    const part = await fetchRaw(`${base}/api/v1/all`, sb.caPem, { headers: { Range: 'bytes=0-9' } });
    assert.equal(part.code, 206);
    assert.equal(part.headers['content-range'], `bytes 0-9/${all.body.length}`);
    assert.deepEqual(part.body, all.body.subarray(0, 10));

    const metas = await fetchRaw(`${base}/api/v1/metas?schema=olm.package`, sb.caPem);
    assert.equal(metas.code, 404, 'the metas endpoint is off by default in v1.2.0');
    assert.equal(metas.body.toString(), '404 page not found\n');
    const missing = await fetchRaw(`${sb.olmV1.contentUrl}/catalogs/nope/api/v1/all`, sb.caPem);
    assert.equal(missing.code, 404);
    assert.equal(missing.body.toString(), '404 Not Found\n');
    assert.equal(missing.headers['content-type'], 'text/plain; charset=utf-8');
    assert.equal(missing.headers['x-content-type-options'], 'nosniff');
    const post = await fetchRaw(`${base}/api/v1/all`, sb.caPem, { method: 'POST' });
    assert.equal(post.code, 405);
    assert.equal(post.body.toString(), 'Method Not Allowed\n');
  });

  test('a catalog image given by --catalog-image serves; by digest too, with the same digest', async () => {
    await create('extra', 'quay.io/example/extra:v1');
    const cc = get('extra')!;
    assert.equal(cond(cc, 'Serving')?.status, 'True');
    const ref = cc.status!.resolvedSource!.image.ref;
    assert.match(ref, /^quay\.io\/example\/extra@sha256:[0-9a-f]{64}$/);
    await create('extra-pinned', ref);
    assert.equal(get('extra-pinned')!.status!.resolvedSource!.image.ref, ref);
  });

  test('an image the sandbox does not have: Progressing Retrying, no Serving condition, nothing served', async () => {
    await create('unknown', 'quay.io/example/absent:latest');
    const cc = get('unknown')!;
    assert.equal(cond(cc, 'Serving'), undefined);
    const p = cond(cc, 'Progressing')!;
    assert.equal(p.status, 'True');
    assert.equal(p.reason, 'Retrying');
    assert.match(p.message, /^source catalog content: /);
    assert.equal(cc.status?.urls, undefined);
  });

  test('a non-canonical reference is Blocked in containers/image words', async () => {
    await create('short', 'example/catalog:latest');
    const p = cond(get('short'), 'Progressing')!;
    assert.deepEqual(
      [p.status, p.reason, p.message],
      [
        'False',
        'Blocked',
        'source catalog content: terminal error: error parsing image reference "example/catalog:latest": repository name must be canonical',
      ],
    );
  });

  test('availabilityMode Unavailable stops serving, clears the status and drops the finalizer', async () => {
    const cc = sb.api.storeGet(ccRes(), undefined, 'extra')!;
    const spec = cc.spec as Record<string, unknown>;
    sb.api.updateObject(ccRes(), { ...cc, spec: { ...spec, availabilityMode: 'Unavailable' } });
    await sb.olmV1.settled();
    const now = get('extra')!;
    assert.deepEqual(
      [cond(now, 'Serving')?.status, cond(now, 'Serving')?.reason, cond(now, 'Serving')?.message],
      ['False', 'UserSpecifiedUnavailable', 'Catalog availability mode is set to Unavailable'],
    );
    assert.equal(cond(now, 'Progressing')?.message, 'Catalog availability mode is set to Unavailable');
    assert.equal(now.status?.urls, undefined);
    assert.equal(now.status?.resolvedSource, undefined);
    assert.deepEqual(now.metadata.finalizers ?? [], []);
    const gone = await fetchRaw(`${sb.olmV1.contentUrl}/catalogs/extra/api/v1/all`, sb.caPem);
    assert.equal(gone.code, 404);
  });

  test('kubectl get shows LastUnpacked, Serving and Age', { skip: kubectlPath ? false : 'no kubectl' }, async () => {
    const r = await kubectl(sb.kubeconfigPath, ['get', 'clustercatalogs']);
    assert.equal(r.code, 0, r.stderr);
    const [header, ...rows] = r.stdout.trimEnd().split('\n');
    assert.match(header!, /^NAME\s+LASTUNPACKED\s+SERVING\s+AGE$/);
    assert.ok(
      rows.some((l) => /^acme\s+\S+\s+True\s+\S+$/.test(l)),
      r.stdout,
    );
  });

  test('deleting a catalog runs the finalizer: the content goes, then the object', async () => {
    const name = 'acme';
    const base = get(name)!.status!.urls!.base;
    sb.api.deleteObject(ccRes(), undefined, name, {});
    await sb.olmV1.settled();
    assert.equal(get(name), undefined);
    assert.equal((await fetchRaw(`${base}/api/v1/all`, sb.caPem)).code, 404);
  });

  test('content that does not parse is "error storing fbc" and Retrying', async () => {
    const bad = join(dir, 'bad');
    writeFixtureCatalog(bad, [{ name: 'bad', bundles: [{ version: '1.0.0' }] }]);
    writeFileSync(join(bad, 'broken.yaml'), 'schema: [unclosed\n');
    const sb2 = await withSandbox({ catalogImages: { 'quay.io/example/bad:1': bad }, demo: false });
    try {
      sb2.api.createObject(sb2.api.resources.find('olm.operatorframework.io', 'v1', 'clustercatalogs')!, {
        apiVersion: 'olm.operatorframework.io/v1',
        kind: 'ClusterCatalog',
        metadata: { name: 'bad' },
        spec: { source: { type: 'Image', image: { ref: 'quay.io/example/bad:1' } } },
      });
      await sb2.olmV1.settled();
      const cc = sb2.api.storeGet(
        sb2.api.resources.find('olm.operatorframework.io', 'v1', 'clustercatalogs')!,
        undefined,
        'bad',
      ) as unknown as CC;
      const p = cond(cc, 'Progressing')!;
      assert.equal(p.reason, 'Retrying');
      assert.match(p.message, /^error storing fbc: error walking FBC root: /);
    } finally {
      await sb2.close();
    }
  });
});
