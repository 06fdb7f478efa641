// The cluster-scoped pickers' names against the sandbox: the PriorityClasses kube-apiserver
// creates and StorageClasses an administrator made, as the person; a namespace admin's 403
// passed on with its reason; bad input refused before anything is asked.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

type Body = { names?: string[]; more?: boolean; error?: { code: number; reason: string; message: string } };

const STORAGE_CLASS = {
  group: 'storage.k8s.io',
  version: 'v1',
  plural: 'storageclasses',
  namespaced: false,
  kind: 'StorageClass',
};

describe('GET /api/cluster/<storageclasses|priorityclasses>', () => {
  const sb = routeSandbox();
  let GET: Handler;
  before(async () => {
    ({ GET } = await import('./route'));
    for (const name of ['standard', 'fast-ssd'])
      await sb.admin.create(STORAGE_CLASS, { metadata: { name }, provisioner: 'example.com/disk' });
  });

  const get = async (kind: string, user = 'admin') => {
    const res = await GET(sb.request(`/api/cluster/${kind}`, { user }), { params: Promise.resolve({ kind }) });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as Body };
  };

  test("the cluster's StorageClasses and PriorityClasses, sorted", async () => {
    const sc = await get('storageclasses');
    assert.equal(sc.status, 200, sc.text);
    assert.deepEqual(sc.body, { names: ['fast-ssd', 'standard'], more: false });
    const pc = await get('priorityclasses');
    assert.equal(pc.status, 200, pc.text);
    assert.deepEqual(pc.body.names, ['system-cluster-critical', 'system-node-critical']);
  });

  test("a namespace admin may not list them: the API server's refusal, with its reason", async () => {
    const r = await get('storageclasses', 'alice');
    assert.equal(r.status, 403);
    assert.equal(r.body.error?.reason, 'Forbidden');
    assert.match(r.body.error!.message, /storageclasses/);
  });

  test('a kind no picker reads is a 400 that names the ones it may be', async () => {
    const r = await get('nodes');
    assert.equal(r.status, 400);
    assert.match(r.body.error!.message, /kind: must be one of storageclasses, priorityclasses/);
  });
});
