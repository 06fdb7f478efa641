// The pickers' names against the sandbox: names only, as the person; the API server's refusal
// passed on with its reason; bad input refused before anything is asked.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ensureNamespace } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

type Body = { names?: string[]; more?: boolean; error?: { code: number; reason: string; message: string } };

const SECRET = { group: '', version: 'v1', plural: 'secrets', namespaced: true, kind: 'Secret' };
const CONFIG_MAP = { group: '', version: 'v1', plural: 'configmaps', namespaced: true, kind: 'ConfigMap' };

describe('GET /api/namespaces/<namespace>/<secrets|configmaps>', () => {
  const sb = routeSandbox();
  let GET: Handler;
  before(async () => {
    ({ GET } = await import('./route'));
    const admin = sb.admin;
    await ensureNamespace(admin, 'team1');
    await ensureNamespace(admin, 'team2');
    await admin.create(SECRET, {
      metadata: { name: 's3-credentials', namespace: 'team1' },
      data: { password: Buffer.from('hunter2').toString('base64') },
    });
    await admin.create(SECRET, {
      metadata: { name: 'db-password', namespace: 'team1' },
      data: { password: Buffer.from('hunter2').toString('base64') },
    });
    await admin.create(CONFIG_MAP, { metadata: { name: 'ca-bundle', namespace: 'team1' }, data: { 'ca.crt': 'PEM' } });
    await admin.create(SECRET, { metadata: { name: 'elsewhere', namespace: 'team2' }, data: { k: 'dg==' } });
  });

  const get = async (namespace: string, kind: string, user = 'admin') => {
    const res = await GET(sb.request(`/api/namespaces/${namespace}/${kind}`, { user }), {
      params: Promise.resolve({ namespace, kind }),
    });
    const text = await res.text();
    return { status: res.status, text, body: JSON.parse(text) as Body };
  };

  test("the names of the namespace's Secrets, sorted, and nothing of their data", async () => {
    const r = await get('team1', 'secrets');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body, { names: ['db-password', 's3-credentials'], more: false });
    assert.doesNotMatch(r.text, /hunter2|aHVudGVyMg/);
  });

  test('ConfigMaps likewise, for a person who may read them but not Secrets', async () => {
    const r = await get('team1', 'configmaps', 'bob');
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.body.names, ['ca-bundle']);
  });

  test("the API server's refusal reaches the picker with its reason", async () => {
    const viewer = await get('team1', 'secrets', 'bob');
    assert.equal(viewer.status, 403);
    assert.equal(viewer.body.error?.reason, 'Forbidden');
    assert.match(viewer.body.error!.message, /secrets/);
    // alice is admin of team1 only.
    assert.equal((await get('team1', 'secrets', 'alice')).status, 200);
    assert.equal((await get('team2', 'secrets', 'alice')).status, 403);
  });

  test('bad input is a 400 that says what is wrong', async () => {
    const kind = await get('team1', 'pods');
    assert.equal(kind.status, 400);
    assert.match(kind.body.error!.message, /kind: must be one of secrets, configmaps/);
    const ns = await get('Not_A_Namespace', 'secrets');
    assert.equal(ns.status, 400);
    assert.match(ns.body.error!.message, /^namespace: /);
  });
});
