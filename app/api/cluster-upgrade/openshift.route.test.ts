// Cluster-upgrade readiness on the sandbox's OpenShift flavour: its ClusterVersion gives the
// release, and the next minor is what operators are checked against by default.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { ReadinessReport } from '@/lib/api/cluster-upgrade';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';

describe('GET /api/cluster-upgrade on the OpenShift flavour', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0, flavor: 'openshift' });
  let GET: (req: Request) => Promise<Response>;
  before(async () => {
    ({ GET } = await import('./route'));
  });

  test('ClusterVersion gives the release, and the next minor is the default target', async () => {
    const { body } = await sb.call<ReadinessReport>(GET, '/api/cluster-upgrade');
    assert.deepEqual(body.cluster, { kind: 'openshift', version: '4.18.12' });
    assert.equal(body.target, '4.19');
  });
});
