// Approvals across three sandbox clusters with both OLMs (lib/sandbox/fleet.ts): the staging
// cluster's pgpilot ClusterExtension is pinned to 1.3.0 while its channel offers 1.4.0, which
// replaces 1.3.0 in the demo catalog's stable channel; prod-east and prod-west each have an
// InstallPlan waiting. The v1 change listed, previewed as the version page previews it, and
// approved together with a v0 plan, each on its own cluster as the person (checked through each
// cluster's API); a viewer's and a stale change refused, changing nothing; a namespace admin's
// rows (approvals and operators) read from the namespaces she may use, her team1 plan listed (and OLM's
// roles refusing her its approval).
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { FleetApprovalsResponse, FleetApproveResponse, FleetOperatorsResponse } from '@/lib/api/fleet';
import type { FleetPreviewResponse } from '@/lib/api/fleet-approvals';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '@/lib/olm/resources/install-plan';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from '@/lib/server/olm-v1/resources';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';
import { waitFor } from '@/lib/server/testing/cluster';
import type { ErrorBody } from '@/lib/server/testing/route-sandbox';

type Handler = (req: Request) => Promise<Response>;

describe('approvals across clusters: InstallPlans and OLM v1 version changes', () => {
  const sb = fleetSandbox(3);
  let list: Handler;
  let preview: Handler;
  let approve: Handler;
  const extension = () => sb.admin('staging').get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, 'pgpilot');
  before(async () => {
    list = (await import('./route')).GET;
    preview = (await import('./preview/route')).POST;
    approve = (await import('./approve/route')).POST;
    // The seed's ClusterExtension is installed by the sandbox's operator-controller in its own time.
    await waitFor('pgpilot installed by OLM v1 on staging', async () =>
      (await extension()).status?.install?.bundle?.version === '1.3.0' ? true : undefined,
    );
  });

  test('the pinned extension is listed on its cluster: what it runs, its pin, the version one upgrade away', async () => {
    const { status, body } = await sb.call<FleetApprovalsResponse>(list, '/api/fleet/approvals');
    assert.equal(status, 200);
    const changes = Object.fromEntries(
      body.clusters.map((c) => [c.name, c.ok ? c.value.versionChanges : c.error.message]),
    );
    assert.deepEqual(changes['prod-east'], []);
    assert.deepEqual(changes['prod-west'], []);
    const [pg, ...rest] = changes.staging as Exclude<(typeof changes)['staging'], string>;
    assert.equal(rest.length, 0);
    assert.deepEqual(
      [pg!.name, pg!.package, pg!.installed.version, pg!.constraint, pg!.channels, pg!.to.version, pg!.to.catalog],
      ['pgpilot', 'pgpilot', '1.3.0', '1.3.0', ['stable'], '1.4.0', 'olm-console-demo'],
    );
    // 1.4.0 is the head of stable: nothing further on offer.
    assert.equal(pg!.newest, undefined);
  });

  test('the preview says what OLM v1 would install, what it changes and the installer rights, writing nothing', async () => {
    const before = await extension();
    const { status, body } = await sb.call<FleetPreviewResponse>(preview, '/api/fleet/approvals/preview', {
      method: 'POST',
      body: { versionChanges: [{ cluster: 'staging', name: 'pgpilot', version: '1.4.0' }] },
    });
    assert.equal(status, 200);
    const [p] = body.versionChanges;
    assert.ok(p?.ok, JSON.stringify(p));
    assert.equal(p.cluster, 'staging');
    assert.deepEqual(p.plan.resolved, { bundle: 'pgpilot.v1.4.0', version: '1.4.0', catalog: 'olm-console-demo' });
    assert.equal(p.plan.change, 'upgrade');
    assert.ok(p.plan.changes, 'what the change does against the installed bundle');
    // The seed binds cluster-admin to the installer itself, not through roles the console made.
    assert.equal(p.plan.rights?.state, 'unknown');
    assert.equal((await extension()).metadata?.resourceVersion, before.metadata?.resourceVersion);
  });

  test('a version OLM v1 cannot read, an unknown cluster or no CSRF token is refused before any cluster is asked', async () => {
    const bad = await sb.call<ErrorBody>(preview, '/api/fleet/approvals/preview', {
      method: 'POST',
      body: { versionChanges: [{ cluster: 'prod-north', name: 'pgpilot', version: '1.4.0' }] },
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /serves no cluster "prod-north"/);
    const none = await sb.call<ErrorBody>(approve, '/api/fleet/approvals/approve', {
      method: 'POST',
      body: { plans: [], versionChanges: [] },
    });
    assert.equal(none.status, 400);
    assert.match(none.body.error.message, /at least one InstallPlan \(plans\) or ClusterExtension/);
    const noCsrf = await sb.call<ErrorBody>(approve, '/api/fleet/approvals/approve', {
      method: 'POST',
      body: { versionChanges: [{ cluster: 'staging', name: 'pgpilot', version: '1.4.0', seen: '1' }] },
      csrf: null,
    });
    assert.equal(noCsrf.status, 403);
    const range = await sb.call<FleetApproveResponse>(approve, '/api/fleet/approvals/approve', {
      method: 'POST',
      body: { versionChanges: [{ cluster: 'staging', name: 'pgpilot', version: '>=1.4.0 <<2', seen: '1' }] },
    });
    const r = range.body.versionChanges[0]!;
    assert.ok(!r.ok && r.error.code === 400 && /is invalid/.test(r.error.message), JSON.stringify(r));
    assert.equal((await extension()).spec?.source?.catalog?.version, '1.3.0');
  });

  test('a viewer approving a plan and a version change is refused on each cluster in its words; nothing changes', async () => {
    const { body: seen } = await sb.call<FleetApprovalsResponse>(list, '/api/fleet/approvals');
    const east = seen.clusters.find((c) => c.name === 'prod-east')!;
    const staging = seen.clusters.find((c) => c.name === 'staging')!;
    assert.ok(east.ok && staging.ok);
    const plan = east.value.approvals[0]!;
    const change = staging.value.versionChanges[0]!;
    const { status, body } = await sb.call<FleetApproveResponse>(approve, '/api/fleet/approvals/approve', {
      user: 'bob',
      method: 'POST',
      body: {
        plans: [{ cluster: 'prod-east', namespace: plan.namespace, name: plan.name }],
        versionChanges: [
          { cluster: 'staging', name: change.name, version: change.to.version, seen: change.resourceVersion },
        ],
      },
    });
    assert.equal(status, 200);
    const [p] = body.results;
    const [v] = body.versionChanges;
    assert.ok(p && !p.ok && p.error.code === 403, JSON.stringify(p));
    assert.ok(v && !v.ok && v.error.code === 403 && /bob/.test(v.error.message), JSON.stringify(v));
    assert.equal((await extension()).spec?.source?.catalog?.version, '1.3.0');
    const after = await sb.admin('prod-east').get<InstallPlan>(INSTALL_PLAN_TYPE, plan.name, plan.namespace);
    assert.equal(after.spec.approved, false);
  });

  test('a version change on an extension that changed since the person saw it is refused, changing nothing', async () => {
    const ce = await extension();
    const { body } = await sb.call<FleetApproveResponse>(approve, '/api/fleet/approvals/approve', {
      method: 'POST',
      body: {
        versionChanges: [
          { cluster: 'staging', name: 'pgpilot', version: '1.4.0', seen: `${ce.metadata!.resourceVersion}0` },
        ],
      },
    });
    const [v] = body.versionChanges;
    assert.ok(v && !v.ok && v.error.code === 409 && /changed/.test(v.error.message), JSON.stringify(v));
    assert.equal((await extension()).spec?.source?.catalog?.version, '1.3.0');
  });

  test('a namespace admin sees, on each cluster, the plans of the namespaces she may use there, and is refused approving', async () => {
    const path = '/api/fleet/approvals?namespace=team1&namespace=operators';
    const { status, body } = await sb.call<FleetApprovalsResponse>(list, path, { user: 'alice' });
    assert.equal(status, 200);
    const plans: Record<string, string[]> = {};
    for (const c of body.clusters) {
      assert.ok(c.ok, `${c.name}: ${c.ok ? '' : c.error.message}`);
      // operators is offered but she may not act there; team1 is hers.
      assert.deepEqual(c.value.namespaces, ['team1']);
      plans[c.name] = c.value.approvals.map((a) => `${a.namespace}: ${a.changes.map((ch) => ch.toCsv).join(', ')}`);
      assert.ok(
        c.value.notes.some((n) => /clusterextensions/.test(n) && /alice/.test(n)),
        JSON.stringify(c.value.notes),
      );
    }
    assert.deepEqual(plans, { 'prod-east': [], 'prod-west': ['team1: cachely.v0.9.2'], staging: [] });
    const west = body.clusters.find((c) => c.name === 'prod-west')!;
    assert.ok(west.ok);
    const plan = west.value.approvals[0]!;
    const { body: done } = await sb.call<FleetApproveResponse>(approve, '/api/fleet/approvals/approve', {
      user: 'alice',
      method: 'POST',
      body: { plans: [{ cluster: 'prod-west', namespace: plan.namespace, name: plan.name }] },
    });
    // alice's admin role in team1 holds OLM's aggregated edit role, which (as the sandbox has it,
    // lib/sandbox/auth/bootstrap-rbac.ts) may delete InstallPlans but not update them: the cluster
    // refuses her approval in its words, and the plan still waits.
    const [r] = done.results;
    assert.ok(r && !r.ok && r.error.code === 403 && /alice.*installplans/.test(r.error.message), JSON.stringify(r));
    const after = await sb.admin('prod-west').get<InstallPlan>(INSTALL_PLAN_TYPE, plan.name, plan.namespace);
    assert.equal(after.spec.approved, false);
    const bad = await sb.call<ErrorBody>(list, '/api/fleet/approvals?namespace=Team_1', { user: 'alice' });
    assert.equal(bad.status, 400);
  });

  test('operators across clusters for a namespace admin: each cluster read in her namespaces', async () => {
    const { GET: operators } = await import('../operators/route');
    const { status, body } = await sb.call<FleetOperatorsResponse>(operators, '/api/fleet/operators?namespace=team1', {
      user: 'alice',
    });
    assert.equal(status, 200);
    for (const c of body.clusters) {
      assert.ok(c.ok, `${c.name}: ${c.ok ? '' : c.error.message}`);
      assert.deepEqual(c.value.namespaces, ['team1']);
    }
    assert.deepEqual(
      body.operators.map((o) => [o.package, Object.keys(o.installs), o.installs['prod-west']?.[0]?.namespace]),
      [['cachely', ['prod-west'], 'team1']],
    );
  });

  test('approving a plan on prod-east and the version change on staging together makes each, as the person', async () => {
    const { body: seen } = await sb.call<FleetApprovalsResponse>(list, '/api/fleet/approvals');
    const east = seen.clusters.find((c) => c.name === 'prod-east')!;
    const staging = seen.clusters.find((c) => c.name === 'staging')!;
    assert.ok(east.ok && staging.ok);
    const plan = east.value.approvals[0]!;
    const change = staging.value.versionChanges[0]!;
    const { status, body } = await sb.call<FleetApproveResponse>(approve, '/api/fleet/approvals/approve', {
      method: 'POST',
      body: {
        plans: [
          {
            cluster: 'prod-east',
            namespace: plan.namespace,
            name: plan.name,
            resourceVersion: plan.resourceVersion,
            clusterServiceVersionNames: plan.clusterServiceVersionNames,
          },
        ],
        versionChanges: [
          { cluster: 'staging', name: change.name, version: change.to.version, seen: change.resourceVersion },
        ],
      },
    });
    assert.equal(status, 200);
    assert.deepEqual(
      [...body.results.map((r) => [r.cluster, r.ok]), ...body.versionChanges.map((r) => [r.cluster, r.ok])],
      [
        ['prod-east', true],
        ['staging', true],
      ],
    );
    const approved = await sb.admin('prod-east').get<InstallPlan>(INSTALL_PLAN_TYPE, plan.name, plan.namespace);
    assert.equal(approved.spec.approved, true);
    const ce = await extension();
    assert.equal(ce.spec?.source?.catalog?.version, '1.4.0');
    // Listed no more: with 1.4.0 set, OLM v1 moves there by itself.
    const { body: again } = await sb.call<FleetApprovalsResponse>(list, '/api/fleet/approvals');
    const st = again.clusters.find((c) => c.name === 'staging')!;
    assert.ok(st.ok);
    assert.deepEqual(st.value.versionChanges, []);
  });
});
