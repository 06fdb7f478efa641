// The fleet routes against three sandbox clusters in one process (lib/sandbox/fleet.ts), the
// console reading them as the contexts of one kubeconfig in per-user-token mode: each cluster's
// summary and the person's rights there, operators across clusters with each cluster's own
// versions and drift, the InstallPlans waiting on two clusters (one of them in team1, alice's), approving one on each as the person
// (checked on each cluster through the Kubernetes API), refusals that change nothing, and a cluster
// that stops answering shown as such while the others keep answering.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type {
  FleetApprovalsResponse,
  FleetApproveResponse,
  FleetClustersResponse,
  FleetIndex,
  FleetOperatorsResponse,
} from '@/lib/api/fleet';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import type { ErrorBody } from '@/lib/server/testing/route-sandbox';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';

type Get = (req: Request) => Promise<Response>;

describe('the fleet: clusters, operators and approvals across three sandbox clusters', () => {
  const sb = fleetSandbox(3);
  let index: Get;
  let clusters: Get;
  let operators: Get;
  let approvals: Get;
  let approve: Get;
  before(async () => {
    index = (await import('./route')).GET;
    clusters = (await import('./clusters/route')).GET;
    operators = (await import('./operators/route')).GET;
    approvals = (await import('./approvals/route')).GET;
    approve = (await import('./approvals/approve/route')).POST;
  });

  test('the index names every context of the kubeconfig, the current one home, asking none', async () => {
    const { status, body } = await sb.call<FleetIndex>(index, '/api/fleet');
    assert.equal(status, 200);
    assert.deepEqual(
      body.clusters.map((c) => [c.name, c.home, c.server]),
      sb.fleet.clusters.map((c, i) => [c.name, i === 0, c.sandbox.url]),
    );
  });

  test('signed out, no cluster is asked: 401', async () => {
    const res = await index(new Request('http://console.local/api/fleet'));
    assert.equal(res.status, 401);
  });

  test('an unknown query parameter is refused', async () => {
    const { status, body } = await sb.call<ErrorBody>(clusters, '/api/fleet/clusters?cluster=x');
    assert.equal(status, 400);
    assert.match(body.error.message, /cluster/);
  });

  test("each cluster says it is ready, its version, both OLMs, its catalogs and the person's rights", async () => {
    const { status, body } = await sb.call<FleetClustersResponse>(clusters, '/api/fleet/clusters');
    assert.equal(status, 200);
    assert.deepEqual(
      body.clusters.map((c) => c.name),
      ['prod-east', 'prod-west', 'staging'],
    );
    for (const c of body.clusters) {
      assert.ok(c.ok, `${c.name}: ${c.ok ? '' : c.error.message}`);
      assert.equal(c.value.ready, true);
      assert.equal(c.value.kubernetesVersion, 'v1.32.0-olm-sandbox');
      assert.equal(c.value.olmV0.present, true);
      assert.equal(c.value.olmV0.packageserver, true);
      assert.equal(c.value.olmV1.present, true);
      assert.ok(
        c.value.catalogs.some((k) => k.kind === 'CatalogSource' && k.name === 'olm-console-demo' && k.healthy),
        JSON.stringify(c.value.catalogs),
      );
      assert.ok(c.value.catalogs.some((k) => k.kind === 'ClusterCatalog' && k.name === 'olm-console-demo'));
      assert.ok(c.value.rights.every((r) => r.allowed));
    }
  });

  test("a viewer's rights are her own, on every cluster, and not the admin's answer from the cache", async () => {
    const { body } = await sb.call<FleetClustersResponse>(clusters, '/api/fleet/clusters', { user: 'bob' });
    for (const c of body.clusters) {
      assert.ok(c.ok);
      const rights = new Map(c.value.rights.map((r) => [r.label, r]));
      assert.equal(rights.get('see operators in every namespace')?.allowed, true);
      assert.equal(rights.get('approve InstallPlans')?.allowed, false);
    }
  });

  test('operators across clusters: each cluster its own versions, and drift from the most common', async () => {
    const { status, body } = await sb.call<FleetOperatorsResponse>(operators, '/api/fleet/operators');
    assert.equal(status, 200);
    assert.ok(body.clusters.every((c) => c.ok));
    const row = (pkg: string) => body.operators.find((o) => o.package === pkg)!;
    const cw = row('certwarden');
    assert.equal(cw.commonVersion, '1.0.0');
    const at = (pkg: string, cluster: string) =>
      row(pkg).installs[cluster]?.map((i) => [i.olm, i.version, i.approval ?? null, i.drift]);
    assert.deepEqual(at('certwarden', 'prod-east'), [['v0', '1.0.0', 'Manual', false]]);
    assert.deepEqual(at('certwarden', 'prod-west'), [['v0', '1.0.0', 'Manual', false]]);
    assert.deepEqual(at('certwarden', 'staging'), [['v0', '1.1.0', 'Automatic', true]]);
    assert.equal(cw.installs['prod-east']![0]!.upgrade?.kind, 'requires-approval');
    assert.equal(cw.installs['prod-east']![0]!.channel, 'stable');
    assert.deepEqual(at('pgpilot', 'prod-east'), [['v0', '1.4.0', 'Automatic', false]]);
    assert.deepEqual(at('pgpilot', 'prod-west'), [['v0', '1.2.0', 'Manual', true]]);
    assert.deepEqual(at('pgpilot', 'staging'), [['v1', '1.3.0', null, true]]);
  });

  test('approvals across clusters: the plans waiting on two clusters, each from → to', async () => {
    const { status, body } = await sb.call<FleetApprovalsResponse>(approvals, '/api/fleet/approvals');
    assert.equal(status, 200);
    const of = (name: string) => {
      const c = body.clusters.find((x) => x.name === name)!;
      assert.ok(c.ok);
      return c.value.approvals.map((a) => a.changes.map((ch) => `${ch.fromVersion} → ${ch.toVersion} (${ch.toCsv})`));
    };
    assert.deepEqual(of('prod-east'), [['1.0.0 → 1.1.0 (certwarden.v1.1.0)']]);
    assert.deepEqual(of('prod-west'), [
      ['1.0.0 → 1.1.0 (certwarden.v1.1.0)', '1.2.0 → 1.4.0 (pgpilot.v1.4.0)'],
      ['0.9.0 → 0.9.2 (cachely.v0.9.2)'],
    ]);
    assert.deepEqual(of('staging'), []);
  });

  test('a viewer may not approve: each cluster refuses in its own words and nothing changes', async () => {
    const { body: list } = await sb.call<FleetApprovalsResponse>(approvals, '/api/fleet/approvals', { user: 'bob' });
    const plans = list.clusters.flatMap((c) =>
      c.ok ? c.value.approvals.map((a) => ({ cluster: c.name, namespace: a.namespace, name: a.name })) : [],
    );
    assert.equal(plans.length, 3);
    const { status, body } = await sb.call<FleetApproveResponse>(approve, '/api/fleet/approvals/approve', {
      user: 'bob',
      method: 'POST',
      body: { plans },
    });
    assert.equal(status, 200);
    for (const r of body.results) {
      assert.equal(r.ok, false);
      assert.ok(!r.ok && r.error.code === 403 && /bob/.test(r.error.message), JSON.stringify(r));
    }
    for (const p of plans) {
      const plan = await sb.admin(p.cluster).get<InstallPlan>(INSTALL_PLAN_TYPE, p.name, p.namespace);
      assert.equal(plan.spec.approved, false);
    }
  });

  test('a cluster the console does not serve, or no CSRF token, refuses everything', async () => {
    const { body: list } = await sb.call<FleetApprovalsResponse>(approvals, '/api/fleet/approvals');
    const east = list.clusters.find((c) => c.name === 'prod-east')!;
    assert.ok(east.ok);
    const plan = {
      cluster: 'prod-east',
      namespace: east.value.approvals[0]!.namespace,
      name: east.value.approvals[0]!.name,
    };
    const unknown = await sb.call<ErrorBody>(approve, '/api/fleet/approvals/approve', {
      method: 'POST',
      body: { plans: [plan, { ...plan, cluster: 'prod-north' }] },
    });
    assert.equal(unknown.status, 400);
    assert.match(unknown.body.error.message, /serves no cluster "prod-north"/);
    const noCsrf = await sb.call<ErrorBody>(approve, '/api/fleet/approvals/approve', {
      method: 'POST',
      body: { plans: [plan] },
      csrf: null,
    });
    assert.equal(noCsrf.status, 403);
    const after = await sb.admin('prod-east').get<InstallPlan>(INSTALL_PLAN_TYPE, plan.name, plan.namespace);
    assert.equal(after.spec.approved, false);
  });

  test('approving one plan on each of two clusters approves each there, as the person', async () => {
    const { body: list } = await sb.call<FleetApprovalsResponse>(approvals, '/api/fleet/approvals');
    // The plans of the operators namespace (prod-west's team1 plan is left waiting).
    const plans = list.clusters.flatMap((c) =>
      c.ok
        ? c.value.approvals
            .filter((a) => a.namespace === 'operators')
            .map((a) => ({
              cluster: c.name,
              namespace: a.namespace,
              name: a.name,
              resourceVersion: a.resourceVersion,
              clusterServiceVersionNames: a.clusterServiceVersionNames,
            }))
        : [],
    );
    const { status, body } = await sb.call<FleetApproveResponse>(approve, '/api/fleet/approvals/approve', {
      method: 'POST',
      body: { plans },
    });
    assert.equal(status, 200);
    assert.deepEqual(
      body.results.map((r) => [r.cluster, r.ok]),
      [
        ['prod-east', true],
        ['prod-west', true],
      ],
    );
    for (const p of plans) {
      const plan = await sb.admin(p.cluster).get<InstallPlan>(INSTALL_PLAN_TYPE, p.name, p.namespace);
      assert.equal(plan.spec.approved, true, `${p.cluster} ${p.name}`);
    }
    // The person's cached view of those clusters is forgotten: they no longer list the plans.
    const { body: again } = await sb.call<FleetApprovalsResponse>(approvals, '/api/fleet/approvals');
    for (const c of again.clusters)
      assert.ok(c.ok && !c.value.approvals.some((a) => plans.some((p) => p.name === a.name && p.cluster === c.name)));
    // Approving again is a conflict reported for that plan: it has been approved (and OLM moved on).
    const twice = await sb.call<FleetApproveResponse>(approve, '/api/fleet/approvals/approve', {
      method: 'POST',
      body: { plans: [plans[0]] },
    });
    const r = twice.body.results[0]!;
    assert.ok(!r.ok && r.error.code === 409 && /approved/.test(r.error.message), JSON.stringify(r));
  });

  test('a cluster that stops answering is its own row with the reason; the others still answer', async () => {
    await sb.fleet.clusters[2]!.sandbox.stop();
    // alice has asked nothing yet, so no cached answer stands in for the stopped cluster.
    const { status, body } = await sb.call<FleetClustersResponse>(clusters, '/api/fleet/clusters', { user: 'alice' });
    assert.equal(status, 200);
    const [east, west, staging] = body.clusters;
    assert.ok(east!.ok && west!.ok);
    assert.ok(!staging!.ok);
    assert.equal(staging!.error.reason, 'ServiceUnavailable');
    assert.match(staging!.error.message, /cannot reach the cluster at https:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/);
  });

  test('per-user tokens the console is not told are shared go to the home cluster only', async () => {
    delete process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS;
    try {
      const { status, body } = await sb.call<FleetClustersResponse>(clusters, '/api/fleet/clusters', { user: 'bob' });
      assert.equal(status, 200);
      const [home, ...others] = body.clusters;
      assert.ok(home?.ok, JSON.stringify(home));
      assert.equal(others.length, 2); // staging is stopped by now, and still not asked
      for (const c of others) {
        assert.ok(!c.ok);
        assert.equal(c.error.code, 401);
        assert.match(c.error.message, /only to the cluster it was checked against \(prod-east\)/);
      }
    } finally {
      process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS = 'true';
    }
  });
});
