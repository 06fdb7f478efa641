// Cluster-upgrade readiness through the route, against the sandbox: PgPilot kept at 1.2.0 (its
// bundle says olm.maxOpenShiftVersion 4.18) blocks 4.19 in OLM's words, with the hop OLM takes to
// the first version that runs there; nothing blocks 4.18; a bad target is a 400.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { ReadinessReport } from '@/lib/api/cluster-upgrade';
import { INSTALL_PLAN_TYPE } from '@/lib/olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '@/lib/olm/resources/subscription';
import { subscribe, waitFor, waitForCsv } from '@/lib/server/testing/cluster';
import { routeSandbox } from '@/lib/server/testing/route-sandbox';

type ErrorBody = { error: { code: number; message: string } };

describe('GET /api/cluster-upgrade', () => {
  const sb = routeSandbox({ deploymentDelayMs: 0 });
  let GET: (req: Request) => Promise<Response>;

  before(async () => {
    const kube = sb.admin;
    await subscribe(kube, {
      namespace: 'pg',
      package: 'pgpilot',
      channel: 'stable',
      targets: ['pg'],
      approval: 'Manual',
      startingCSV: 'pgpilot.v1.2.0',
    });
    const plan = await waitFor(
      'the first plan',
      async () => (await kube.get<Subscription>(SUBSCRIPTION_TYPE, 'pgpilot', 'pg')).status?.installPlanRef?.name,
    );
    await kube.patch(INSTALL_PLAN_TYPE, plan, { spec: { approved: true } }, { namespace: 'pg', type: 'merge' });
    await waitForCsv(kube, 'pg', 'pgpilot.v1.2.0');
    ({ GET } = await import('./route'));
  });

  const get = (query = '') => sb.call<ReadinessReport & ErrorBody>(GET, `/api/cluster-upgrade${query}`);

  test("4.19: PgPilot 1.2.0 blocks it in OLM's words, and one InstallPlan to 1.4.0 clears it", async () => {
    const { status, body } = await get('?target=4.19');
    assert.equal(status, 200, JSON.stringify(body));
    assert.equal(body.cluster.kind, 'kubernetes', 'the sandbox runs upstream: no ClusterVersion');
    assert.equal(body.target, '4.19');
    const row = body.rows.find((r) => r.csv === 'pgpilot.v1.2.0')!;
    // Named as everywhere else: the CSV's display name and its version.
    assert.equal(row.displayName, 'PgPilot');
    assert.equal(row.version, '1.2.0');
    assert.equal(row.maxOpenShiftVersion, '4.18');
    assert.deepEqual(
      row.blockers.map((b) => b.kind),
      ['maxOpenShiftVersion'],
    );
    assert.deepEqual(row.wayOut, {
      to: 'pgpilot.v1.4.0',
      hops: ['pgpilot.v1.4.0'],
      channel: 'stable',
      version: '1.4.0',
    });
    assert.equal(
      body.olmMessage,
      'ClusterServiceVersions blocking minor version upgrades to 4.19 or higher:\n- maximum supported OCP version for pg/pgpilot.v1.2.0 is 4.18',
    );
  });

  test('4.18 is not blocked; without a target and without a ClusterVersion nothing is judged', async () => {
    const at418 = await get('?target=4.18');
    assert.deepEqual(at418.body.rows.find((r) => r.csv === 'pgpilot.v1.2.0')?.blockers, []);
    assert.equal(at418.body.olmMessage, undefined);
    const none = await get();
    assert.equal(none.body.target, undefined);
    assert.equal(none.body.rows.find((r) => r.csv === 'pgpilot.v1.2.0')?.maxOpenShiftVersion, '4.18');
    const bad = await get('?target=latest');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /target is an OpenShift minor version such as 4\.19/);
  });
});
