// A home cluster that is an Open Cluster Management hub (a sandbox fleet of two, the first the
// hub), as people with and without the right to list ManagedClusters see it once the console learns
// "hub" from discovery: a person refused the list is told the hub is there and that they may not
// read it (their own answer, asked again after a few seconds), someone who may sees the clusters
// it lists; discovery is asked once for everyone; and a hub whose API goes away is no hub for
// everyone from the next read that finds it gone.
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { before, describe, test } from 'node:test';
import type { FleetIndex } from '@/lib/api/fleet';
import { hubPageState } from '@/components/shell/nav-items';
import { CRD_TYPE } from '@/lib/k8s/core-kinds';
import { pageClusters } from '@/lib/server/context-page';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';
import { MANAGED_CLUSTER_TYPE, withHubMembers } from './hub-members';
import { fleetMembers } from './members';
import { fleetPerson } from './person';

const OCM_V1 = '/apis/cluster.open-cluster-management.io/v1';
const DISCOVERY = `GET ${OCM_V1}`;
const LIST = `GET ${OCM_V1}/managedclusters`;
const REFUSED = /^the home cluster is an Open Cluster Management hub, but you may not list its ManagedClusters/;

describe('a home cluster that is a hub, for people who may and may not list ManagedClusters', () => {
  const s = fleetSandbox(2, { hubOnly: ['prod-west'] });
  let index: (req: Request) => Promise<Response>;
  // The OCM requests the hub received, as "METHOD path".
  const asked: string[] = [];
  const read = (user: string, at: number) => {
    const configured = fleetMembers();
    return withHubMembers(configured, fleetPerson(s.request('/operatorhub', { user }), configured), at);
  };

  before(async () => {
    index = (await import('@/app/api/fleet/route')).GET;
    const hooks = s.fleet.clusters[0]!.sandbox.api.hooks;
    const previous = hooks.fault;
    hooks.fault = (req: IncomingMessage) => {
      const path = (req.url ?? '').split('?')[0]!;
      if (path.startsWith(OCM_V1)) asked.push(`${req.method} ${path}`);
      return previous?.(req);
    };
  });

  test('someone refused the list hears the hub is there and that they may not read it', async () => {
    const { status, body } = await s.call<FleetIndex>(index, '/api/fleet', { user: 'alice' });
    assert.equal(status, 200);
    assert.equal(body.hub?.hub, true);
    assert.match(body.hub?.note ?? '', REFUSED);
    assert.deepEqual(
      body.clusters.map((c) => c.name),
      ['prod-east'],
    );
    const nav = hubPageState(body, false);
    assert.equal(nav.shown, 'no');
    assert.match(nav.shown === 'no' ? nav.reason : '', REFUSED);
    assert.deepEqual(await pageClusters(s.request('/operatorhub', { user: 'alice' }).headers), {
      names: ['prod-east'],
    });
  });

  test('someone who may list sees the clusters it lists; discovery was asked once for both', async () => {
    const { body } = await s.call<FleetIndex>(index, '/api/fleet');
    assert.deepEqual(body.hub, { hub: true });
    assert.deepEqual(
      body.clusters.map((c) => [c.name, c.managed?.source]),
      [
        ['prod-east', 'settings'],
        ['prod-west', 'hub'],
      ],
    );
    assert.deepEqual(hubPageState(body, false), { shown: 'yes' });
    assert.equal(asked.filter((a) => a === DISCOVERY).length, 1, asked.join('\n'));
  });

  test("a refusal stays the person's own and is asked again after a few seconds", async () => {
    asked.length = 0;
    const t0 = Date.now();
    assert.match((await read('alice', t0 + 11_000)).hub.note ?? '', REFUSED);
    assert.match((await read('alice', t0 + 12_000)).hub.note ?? '', REFUSED);
    assert.match((await read('alice', t0 + 22_000)).hub.note ?? '', REFUSED);
    assert.deepEqual(asked, [LIST, LIST]);
  });

  test('once the ManagedCluster API is gone, the next read finds no hub, for everyone', async () => {
    await s.admin('prod-east').delete(CRD_TYPE, 'managedclusters.cluster.open-cluster-management.io');
    for (let i = 0; ; i++) {
      if (!(await s.admin('prod-east').serves(MANAGED_CLUSTER_TYPE))) break;
      if (i > 100) throw new Error('ManagedClusters still served after their CRD was deleted');
      await new Promise((r) => setTimeout(r, 50));
    }
    asked.length = 0;
    const t0 = Date.now();
    assert.deepEqual((await read('admin', t0 + 11_000)).hub, { hub: false });
    const alice = await read('alice', t0 + 33_000);
    assert.deepEqual(alice.hub, { hub: false });
    assert.deepEqual(
      alice.members.map((m) => m.name),
      ['prod-east'],
    );
    assert.deepEqual(asked, [LIST]);
  });
});
