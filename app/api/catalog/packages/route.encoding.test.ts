// OperatorHub's list compressed once per content and served as stored bytes, against the sandbox:
// the same bytes for a second request, the coding the client accepts, and a new answer (bytes and
// ETag) when the catalogs' content or the person's rights change what they may see.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { rbacType } from '@/lib/k8s/core-kinds';
import { STORED_ENCODING_HEADER } from '@/lib/server/http/stored-encoding';
import { bundleCopy } from '@/lib/server/testing/bundle-copy';
import { subscribe } from '@/lib/server/testing/cluster';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';

type List = { catalogs: { name: string; kind?: string }[]; packages: { name: string; installedIn?: string[] }[] };

describe('GET /api/catalog/packages, compressed once', () => {
  const sb = routeSandbox();
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    ({ GET } = await import('./route'));
  });

  const fetchList = async (user: string, headers: Record<string, string> = {}) => {
    const res = await GET(sb.request('/api/catalog/packages', { user, bearer: true, headers }));
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const decode = (r: { res: Response; bytes: Buffer }): List => {
    // The coding the console's server sends as Content-Encoding (e2e/operatorhub.test.ts sees it on the wire).
    const enc = r.res.headers.get(STORED_ENCODING_HEADER);
    const text = enc === 'br' ? brotliDecompressSync(r.bytes) : enc === 'gzip' ? gunzipSync(r.bytes) : r.bytes;
    return JSON.parse(text.toString()) as List;
  };

  test("the page's copy of the list module and the route's share one kept answer (one per process)", async () => {
    const mine = await import('@/lib/server/hub-list');
    const file = join(import.meta.dirname, '..', '..', '..', '..', 'lib', 'server', 'hub-list.ts');
    const copy = await bundleCopy<typeof mine>(file);
    assert.notEqual(copy.hubList, mine.hubList, 'two copies of the module');
    const query = mine.HubQuery.parse({});
    const first = await mine.hubList(sb.admin, query);
    assert.equal(await copy.hubList(sb.admin, query), first, 'not built again by the other copy');
  });

  test('a second request gets the same bytes; each client the coding it accepts, all the same list', async () => {
    const plain = await fetchList('admin');
    const gz1 = await fetchList('admin', { 'accept-encoding': 'gzip' });
    const gz2 = await fetchList('admin', { 'accept-encoding': 'gzip' });
    const br = await fetchList('admin', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    assert.equal(plain.res.headers.get(STORED_ENCODING_HEADER), null);
    assert.equal(gz1.res.headers.get(STORED_ENCODING_HEADER), 'gzip');
    assert.equal(br.res.headers.get(STORED_ENCODING_HEADER), 'br');
    assert.deepEqual(gz1.bytes, gz2.bytes, 'the stored bytes, not a new compression');
    for (const r of [plain, gz1, br]) {
      assert.equal(r.res.status, 200);
      assert.equal(r.res.headers.get('vary'), 'Accept-Encoding');
      assert.equal(r.res.headers.get('cache-control'), 'no-store', 'never kept by the browser');
      assert.equal(r.res.headers.get('etag'), plain.res.headers.get('etag'));
    }
    assert.deepEqual(decode(gz1), decode(plain));
    assert.deepEqual(decode(br), decode(plain));
    assert.ok(decode(plain).packages.length >= 12);
    assert.ok(gz1.bytes.length < plain.bytes.length / 3, `${gz1.bytes.length} of ${plain.bytes.length} bytes`);
  });

  test('an install changes the content: new bytes and ETag, and the old ETag no longer answers 304', async () => {
    const before = await fetchList('admin', { 'accept-encoding': 'gzip' });
    const etag = before.res.headers.get('etag')!;
    assert.equal((await fetchList('admin', { 'if-none-match': etag })).res.status, 304);
    await subscribe(sb.admin, { namespace: 'enc', package: 'cachely', channel: 'stable', targets: [''] });
    const after = await fetchList('admin', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    assert.equal(after.res.status, 200);
    assert.notEqual(after.res.headers.get('etag'), etag);
    assert.notDeepEqual(after.bytes, before.bytes);
    assert.deepEqual(decode(after).packages.find((p) => p.name === 'cachely')?.installedIn, ['enc']);
  });

  test("what a person may read decides the bytes: another person's stored list is never theirs", async () => {
    const admin = await fetchList('admin', { 'accept-encoding': 'gzip' });
    const bob = await fetchList('bob', { 'accept-encoding': 'gzip' });
    // The admin may list ClusterCatalogs; bob (view) may not, so his list has no OLM v1 tiles.
    assert.ok(decode(admin).catalogs.some((c) => c.kind === 'ClusterCatalog'));
    assert.ok(!decode(bob).catalogs.some((c) => c.kind === 'ClusterCatalog'));
    assert.notDeepEqual(bob.bytes, admin.bytes);
    const adminTag = admin.res.headers.get('etag')!;
    const bobWithAdminsTag = await fetchList('bob', { 'if-none-match': adminTag });
    assert.equal(bobWithAdminsTag.res.status, 200, "the admin's ETag is not bob's answer");
    assert.ok(!decode(bobWithAdminsTag).catalogs.some((c) => c.kind === 'ClusterCatalog'));
    const alice = await fetchList('alice', { 'accept-encoding': 'gzip' });
    assert.equal(alice.res.status, 200);
    assert.deepEqual(decode(alice).packages, [], 'alice may read no catalog cluster-wide');

    await sb.admin.create(rbacType('ClusterRole'), {
      metadata: { name: 'enc-catalog-reader' },
      rules: [{ apiGroups: ['olm.operatorframework.io'], resources: ['clustercatalogs'], verbs: ['list'] }],
    });
    await sb.admin.create(rbacType('ClusterRoleBinding'), {
      metadata: { name: 'bob-enc-catalog-reader' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'enc-catalog-reader' },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'bob' }],
    });
    const granted = await fetchList('bob', {
      'accept-encoding': 'gzip',
      'if-none-match': bob.res.headers.get('etag')!,
    });
    assert.equal(granted.res.status, 200, 'a right granted changes the answer');
    assert.ok(decode(granted).catalogs.some((c) => c.kind === 'ClusterCatalog'));
  });
});
