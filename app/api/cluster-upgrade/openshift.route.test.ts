// Cluster-upgrade readiness on the sandbox's OpenShift flavour: its ClusterVersion gives the
// release, and the next minor is what operators are checked against by default.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ReadinessReport } from '@/lib/api/cluster-upgrade';
import { withSandbox } from '@/lib/sandbox/testing/sandbox-fixture';
import { consoleRequest } from '@/lib/server/testing/console-request';

describe('GET /api/cluster-upgrade on the OpenShift flavour', () => {
  let sb: Awaited<ReturnType<typeof withSandbox>>;
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    sb = await withSandbox({ deploymentDelayMs: 0, flavor: 'openshift' });
    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    process.env.OLM_CONSOLE_WARM_INDEX = 'false';
    ({ GET } = await import('./route'));
  });
  after(() => sb.close());

  test('ClusterVersion gives the release, and the next minor is the default target', async () => {
    const res = await GET(consoleRequest('/api/cluster-upgrade', { token: sb.tokens.admin! }));
    const body = (await res.json()) as ReadinessReport;
    assert.deepEqual(body.cluster, { kind: 'openshift', version: '4.18.12' });
    assert.equal(body.target, '4.19');
  });
});
