// Namespaces for the install wizard, against the sandbox: with their OperatorGroups and which
// are global; a namespace-only person gets the namespace they name.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { ensureNamespace } from '@/lib/server/testing/cluster';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';
import { OPERATOR_GROUP_TYPE } from '@/lib/olm/resources/operator-group';

type Body = {
  canListAll: boolean;
  globalNamespaces: string[];
  namespaces: { name: string; operatorGroups: { name: string; targets: 'all' | string[] }[] }[];
};

describe('GET /api/namespaces', () => {
  const sb = routeSandbox();
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    ({ GET } = await import('./route'));
    const admin = sb.admin;
    await ensureNamespace(admin, 'platform-ops');
    await admin.create(OPERATOR_GROUP_TYPE, { metadata: { name: 'everything', namespace: 'platform-ops' }, spec: {} });
  });

  const get = (query: string, user: string) => sb.call<Body>(GET, `/api/namespaces${query}`, { user, bearer: true });

  test('every namespace with its groups; global ones named, custom ones included', async () => {
    const { status, body } = await get('', 'admin');
    assert.equal(status, 200);
    assert.equal(body.canListAll, true);
    assert.ok(body.globalNamespaces.includes('operators'));
    assert.ok(body.globalNamespaces.includes('platform-ops'), 'a custom global namespace');
    assert.deepEqual(body.namespaces.find((n) => n.name === 'platform-ops')?.operatorGroups, [
      { name: 'everything', targets: 'all' },
    ]);
  });

  test('a namespace-only person: the namespace they name', async () => {
    const { status, body } = await get('?namespace=team1', 'alice');
    assert.equal(status, 200);
    assert.equal(body.canListAll, false);
    assert.deepEqual(
      body.namespaces.map((n) => n.name),
      ['team1'],
    );
  });
});
