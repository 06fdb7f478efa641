// A cluster only the Open Cluster Management hub lists is known by the name and address the hub
// gives now. When someone who may write its ManagedCluster points the name at another API server,
// nothing the console read at the old address is given under the name again, even the answer it
// keeps a few seconds per person (across.ts). Three sandbox clusters, the console's kubeconfig
// naming prod-east (the hub) only; prod-west and staging are known from the hub.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, test } from 'node:test';
import type { FleetRolloutResponse } from '@/lib/api/fleet-rollout';
import { MANAGED_CLUSTER_TYPE, type ManagedCluster } from '@/lib/server/fleet/hub-members';
import { fleetSandbox } from '@/lib/server/testing/fleet-sandbox';

type Rollout = (req: Request, ctx: { params: Promise<{ package: string }> }) => Promise<Response>;

describe('a hub-listed cluster pointed at another address', () => {
  const sb = fleetSandbox(3, { hubOnly: ['prod-west', 'staging'] });
  let rollout: Rollout;
  let index: (req: Request) => Promise<Response>;
  before(async () => {
    rollout = (await import('./operators/[package]/route')).GET;
    index = (await import('./route')).GET;
  });
  const pgpilot = async () => {
    const res = await rollout(sb.request('/api/fleet/operators/pgpilot'), {
      params: Promise.resolve({ package: 'pgpilot' }),
    });
    assert.equal(res.status, 200);
    const body = (await res.json()) as FleetRolloutResponse;
    const row = (name: string) => {
      const c = body.clusters.find((x) => x.name === name);
      assert.ok(c?.ok, JSON.stringify(c));
      return c.value.installs.map((i) => [i.olm, i.version]);
    };
    return { west: row('prod-west'), staging: row('staging') };
  };

  test('its row is read at the new address at once, not taken from what the old one said', async () => {
    // The hub's list is kept 10 s per person (hub-members.ts): read it now, and ask for the row late
    // in that time, so the row's kept answer outlives the list it was read with.
    assert.equal((await index(sb.request('/api/fleet'))).status, 200);
    await sleep(8_000);
    const first = await pgpilot();
    assert.deepEqual(first.west, [['v0', '1.2.0']]);
    assert.deepEqual(first.staging, [['v1', '1.3.0']]);

    const hub = sb.admin('prod-east');
    const staging = sb.fleet.clusters.find((c) => c.name === 'staging')!.sandbox;
    const west = await hub.get<ManagedCluster>(MANAGED_CLUSTER_TYPE, 'prod-west');
    await hub.replace(MANAGED_CLUSTER_TYPE, {
      ...west,
      spec: {
        ...west.spec,
        managedClusterClientConfigs: [{ url: staging.url, caBundle: Buffer.from(staging.caPem).toString('base64') }],
      },
    });
    // Past the hub list's 10 s, within the row's: the name now names staging's API server.
    await sleep(3_000);
    const after = await pgpilot();
    assert.deepEqual(after.west, after.staging, "prod-west's row is what its new address answers");
  });
});
