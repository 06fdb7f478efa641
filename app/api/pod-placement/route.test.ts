// The cluster facts the install wizard's configuration reads, on the sandbox's OpenShift flavour:
// the Proxy `cluster` status OLM passes on and the nodes; a person who may read neither is told
// only that it is OpenShift. (Upstream, with no Proxy
// API, the answer is `openshift: false`: see the config route's test.)
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { ResourceType } from '@/lib/olm/resources/common';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';

const PROXY: ResourceType = {
  group: 'config.openshift.io',
  version: 'v1',
  plural: 'proxies',
  namespaced: false,
  kind: 'Proxy',
};

describe('GET /api/pod-placement (OpenShift)', () => {
  const sb = routeSandbox({ flavor: 'openshift' });
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    ({ GET } = await import('./route'));
  });

  const read = async (user = 'admin') => {
    const res = await GET(sb.request('/api/pod-placement', { user }));
    assert.equal(res.status, 200);
    return res.json();
  };

  test('no proxy configured: the Proxy is there, empty; the nodes with their labels', async () => {
    const body = await read();
    assert.deepEqual(body.clusterProxy, { HTTP_PROXY: '', HTTPS_PROXY: '', NO_PROXY: '' });
    assert.ok(body.nodes.length > 0);
    assert.equal(body.nodes[0].labels['kubernetes.io/os'], 'linux');
  });

  test('a proxy configured: its status, as OLM reads it', async () => {
    await sb.admin.patch(
      PROXY,
      'cluster',
      { status: { httpProxy: 'http://proxy:3128', noProxy: '.svc' } },
      { type: 'merge', subresource: 'status' },
    );
    assert.deepEqual((await read()).clusterProxy, {
      HTTP_PROXY: 'http://proxy:3128',
      HTTPS_PROXY: '',
      NO_PROXY: '.svc',
    });
  });

  test("bob may view namespaces, not the cluster's Proxy or nodes: neither is given", async () => {
    assert.deepEqual(await read('bob'), { openshift: true });
  });
});
