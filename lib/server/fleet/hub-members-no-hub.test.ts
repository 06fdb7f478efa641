// A home cluster that is no Open Cluster Management hub, as people who may not list ManagedClusters
// see it. kube-apiserver (and the sandbox, as it) refuses them the list with a 403 whether or not
// the API exists, so that refusal cannot say whether the cluster is a hub: their fleet index,
// Clusters page and navigation must say "no hub", never "a hub you may not read", and their pages
// must not ask the cluster again every few seconds. Against a sandbox without OCM.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { before, describe, test } from 'node:test';
import type { FleetClustersResponse, FleetIndex } from '@/lib/api/fleet';
import { hubPageState } from '@/components/shell/nav-items';
import { isKubeError } from '@/lib/k8s/errors';
import { pageClusters } from '@/lib/server/context-page';
import { clientAs } from '@/lib/server/testing/cluster';
import { routeSandbox, type Handler } from '@/lib/server/testing/route-sandbox';
import { MANAGED_CLUSTER_TYPE, withHubMembers } from './hub-members';
import { fleetMembers } from './members';
import { fleetPerson } from './person';

const OCM_GROUP = '/apis/cluster.open-cluster-management.io/';

describe('a home cluster that is no hub, for people who may not list ManagedClusters', () => {
  const s = routeSandbox({ demo: false });
  let index: Handler;
  let clusters: Handler;
  // Every request the cluster received for the OCM group, as "METHOD path user-token".
  const asked: string[] = [];

  before(async () => {
    index = (await import('@/app/api/fleet/route')).GET;
    clusters = (await import('@/app/api/fleet/clusters/route')).GET;
    const hooks = s.sandbox.api.hooks;
    const previous = hooks.fault;
    hooks.fault = (req: IncomingMessage) => {
      if ((req.url ?? '').startsWith(OCM_GROUP)) asked.push(`${req.method} ${req.url?.split('?')[0]}`);
      return previous?.(req);
    };
  });

  test('the cluster refuses them the list of an API it does not serve, as kube-apiserver does', async () => {
    await assert.rejects(clientAs(s.sandbox, 'alice').list(MANAGED_CLUSTER_TYPE), (err) => isKubeError(err, 403));
    asked.length = 0;
  });

  test('their index, Clusters page and navigation say it is no hub, and nothing of hub rights', async () => {
    for (const user of ['alice', 'bob']) {
      const fleet = await s.call<FleetIndex>(index, '/api/fleet', { user });
      assert.equal(fleet.status, 200);
      assert.equal(fleet.body.hub, undefined, `${user}: ${JSON.stringify(fleet.body.hub)}`);
      assert.deepEqual(hubPageState(fleet.body, false), {
        shown: 'no',
        reason: 'The home cluster serves no ManagedClusters: it is not an Open Cluster Management hub.',
      });
      const page = await s.call<FleetClustersResponse>(clusters, '/api/fleet/clusters', { user });
      assert.equal(page.status, 200);
      assert.equal(page.body.hub?.note, undefined, `${user}: ${page.body.hub?.note}`);
      const layout = await pageClusters(s.request('/operatorhub', { user }).headers);
      assert.deepEqual(layout, { names: fleetMembers().map((m) => m.name) });
    }
    // Learnt once, from discovery, for both: neither person's list was asked for.
    assert.deepEqual(asked, ['GET /apis/cluster.open-cluster-management.io/v1']);
  });

  test('their pages do not ask the cluster again every few seconds', async () => {
    asked.length = 0;
    const configured = fleetMembers();
    const t0 = Date.now();
    for (const [user, at] of [
      ['alice', t0 + 11_000],
      ['bob', t0 + 22_000],
      ['alice', t0 + 60_000],
      ['bob', t0 + 120_000],
    ] as const) {
      const person = fleetPerson(s.request('/operatorhub', { user }), configured);
      const { hub } = await withHubMembers(configured, person, at);
      assert.deepEqual(hub, { hub: false });
    }
    assert.deepEqual(asked, []);
  });
});
