// One InstallPlan through the console's route, against the sandbox: two Manual Subscriptions made
// in a namespace before its OperatorGroup are resolved together into one plan (as OLM does), and
// the answer names each operator's part of it.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { InstallPlanDetails } from '@/lib/api/install-plans';
import { OPERATOR_GROUP_TYPE } from '@/lib/olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { subscribe, waitFor } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';

describe('GET /api/installplans/<ns>/<name>', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: Handler;
  let plan: string;

  before(async () => {
    const kube = sb.admin;
    await subscribe(kube, { namespace: 'shared', package: 'pgpilot', channel: 'stable', approval: 'Manual' });
    await subscribe(kube, { namespace: 'shared', package: 'cachely', channel: 'alpha', approval: 'Manual' });
    await kube.create(
      OPERATOR_GROUP_TYPE,
      { metadata: { name: 'shared-og', namespace: 'shared' }, spec: { targetNamespaces: ['shared'] } },
      { namespace: 'shared' },
    );
    plan = await waitFor('one plan for both', async () => {
      const [a, b] = await Promise.all([
        kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'shared'),
        kube.get<Subscription>(SUBSCRIPTION_TYPE, 'cachely', 'shared'),
      ]);
      const n = a.status?.installPlanRef?.name;
      return n && n === b.status?.installPlanRef?.name ? n : undefined;
    });
    ({ GET } = await import('./route'));
  });

  test("a shared Manual plan names each operator's part", async () => {
    const res = await GET(sb.request(`/api/installplans/shared/${plan}`), {
      params: Promise.resolve({ namespace: 'shared', name: plan }),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as InstallPlanDetails;
    assert.equal(body.summary.needsApproval, true);
    const parts = Object.fromEntries(body.parts.map((p) => [p.subscription, p]));
    assert.equal(parts.pgpilot?.change, 'install');
    assert.match(parts.pgpilot?.csv ?? '', /^pgpilot\.v/);
    assert.equal(parts.cachely?.change, 'install');
    assert.ok((parts.cachely?.kinds.ClusterServiceVersion ?? 0) === 1 && (parts.pgpilot?.steps ?? 0) > 1);
  });
});
