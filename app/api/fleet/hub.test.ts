// The console on an Open Cluster Management hub: three sandbox clusters, the first a hub listing
// the others as ManagedClusters (lib/sandbox/ocm/), and a console whose kubeconfig names only the
// hub and staging. The fleet's other clusters come from the hub, read as the person: each with its
// claims, conditions and cluster set; the hub itself is not listed twice; a cluster the settings
// name too keeps the settings' address; a ManagedCluster without an https address is a row saying
// why it is not asked; a person who may not list ManagedClusters sees the configured clusters and
// the reason.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import yaml from 'js-yaml';
import type { FleetClustersResponse, FleetIndex } from '@/lib/api/fleet';
import type { KubeClient } from '@/lib/k8s/client';
import { startSandboxFleet, type SandboxFleet } from '@/lib/sandbox/fleet';
import { MANAGED_CLUSTER_TYPE, type ManagedCluster } from '@/lib/server/fleet/hub-members';
import { clientAs } from '@/lib/server/testing/cluster';
import { consoleRequest } from '@/lib/server/testing/console-request';

type Get = (req: Request) => Promise<Response>;

describe('the fleet on an OCM hub', () => {
  let dir: string;
  let fleet: SandboxFleet;
  let hub: KubeClient;
  let index: Get;
  let clusters: Get;
  const call = async <T>(handler: Get, path: string, user = 'admin') => {
    const res = await handler(consoleRequest(path, { token: fleet.tokens[user]! }));
    return { status: res.status, body: (await res.json()) as T };
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'olm-fleet-hub-'));
    fleet = await startSandboxFleet({ count: 3, kubeconfigPath: join(dir, 'kubeconfig'), deploymentDelayMs: 0 });
    // The console's kubeconfig names the hub and staging only; prod-west it learns from the hub.
    type Doc = { clusters: { name: string }[]; contexts: { name: string }[] };
    const doc = yaml.load(readFileSync(fleet.kubeconfigPath, 'utf8')) as Doc;
    const keep = (n: { name: string }) => n.name !== 'prod-west';
    const own = join(dir, 'console-kubeconfig');
    writeFileSync(own, yaml.dump({ ...doc, clusters: doc.clusters.filter(keep), contexts: doc.contexts.filter(keep) }));
    process.env.OLM_CONSOLE_KUBECONFIG = own;
    process.env.OLM_CONSOLE_AUTH = 'token';
    process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS = 'true';
    process.env.OLM_CONSOLE_WARM_INDEX = 'false';
    hub = clientAs(fleet.clusters[0]!.sandbox, 'admin');
    // Two clusters the hub lists that the console must not ask: no address, and a plain-http one.
    await hub.create(MANAGED_CLUSTER_TYPE, { metadata: { name: 'lab' }, spec: { hubAcceptsClient: true } });
    await hub.create(MANAGED_CLUSTER_TYPE, {
      metadata: { name: 'plain' },
      spec: { hubAcceptsClient: true, managedClusterClientConfigs: [{ url: 'http://127.0.0.1:1' }] },
    });
    // The hub gives staging another address than the console's settings: the settings' is used.
    const staging = await hub.get<ManagedCluster>(MANAGED_CLUSTER_TYPE, 'staging');
    await hub.replace(MANAGED_CLUSTER_TYPE, {
      ...staging,
      spec: { ...staging.spec, managedClusterClientConfigs: [{ url: 'https://127.0.0.1:1' }] },
    });
    index = (await import('./route')).GET;
    clusters = (await import('./clusters/route')).GET;
  });
  after(async () => {
    await fleet.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the index lists the configured clusters, then those the hub adds; the hub itself once', async () => {
    const { status, body } = await call<FleetIndex>(index, '/api/fleet');
    assert.equal(status, 200);
    const url = (i: number) => fleet.clusters[i]!.sandbox.url;
    assert.deepEqual(
      body.clusters.map((c) => [c.name, c.home, c.server, c.managed?.name, c.managed?.source]),
      [
        ['prod-east', true, url(0), 'local-cluster', 'settings'],
        ['staging', false, url(2), 'staging', 'settings'],
        ['lab', false, '', 'lab', 'hub'],
        ['plain', false, 'http://127.0.0.1:1', 'plain', 'hub'],
        ['prod-west', false, url(1), 'prod-west', 'hub'],
      ],
    );
    assert.deepEqual(body.hub, { hub: true });
    // What the hub says of staging is shown, its address too, though the settings' is the one used.
    assert.equal(body.clusters[1]!.managed?.url, 'https://127.0.0.1:1');
  });

  test('a hub-listed cluster is asked as the person, with its claims, conditions and set on its row', async () => {
    const { status, body } = await call<FleetClustersResponse>(clusters, '/api/fleet/clusters');
    assert.equal(status, 200);
    const west = body.clusters.find((c) => c.name === 'prod-west')!;
    assert.ok(west.ok, JSON.stringify(west));
    assert.equal(west.value.ready, true);
    assert.equal(west.value.kubernetesVersion, 'v1.32.0-olm-sandbox');
    assert.ok(west.value.rights.every((r) => r.allowed));
    assert.deepEqual(west.managed?.claims, [{ name: 'region.open-cluster-management.io', value: 'us-west-2' }]);
    assert.equal(west.managed?.clusterSet, 'default');
    assert.deepEqual(
      west.managed?.conditions.map((c) => [c.type, c.status]),
      [
        ['HubAcceptedManagedCluster', 'True'],
        ['ManagedClusterJoined', 'True'],
        ['ManagedClusterConditionAvailable', 'True'],
      ],
    );
    // staging answers at the settings' address, not the hub's (which answers nothing).
    assert.ok(body.clusters.find((c) => c.name === 'staging')!.ok);
  });

  test('a ManagedCluster without an https address is a row saying why it is not asked', async () => {
    const { body } = await call<FleetClustersResponse>(clusters, '/api/fleet/clusters');
    const row = (name: string) => body.clusters.find((c) => c.name === name)!;
    const lab = row('lab');
    assert.ok(!lab.ok);
    assert.equal(lab.error.code, 503);
    assert.match(lab.error.message, /lab is not asked: the hub lists it without an address/);
    const plain = row('plain');
    assert.ok(!plain.ok);
    assert.match(plain.error.message, /http:\/\/127\.0\.0\.1:1, which is not https/);
    assert.match(plain.managed?.unreachable ?? '', /not https/);
  });

  test('a token that may not travel is not sent to a hub-listed cluster', async () => {
    process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS = 'false';
    try {
      const { body } = await call<FleetClustersResponse>(clusters, '/api/fleet/clusters');
      const west = body.clusters.find((c) => c.name === 'prod-west')!;
      assert.ok(!west.ok);
      assert.equal(west.error.code, 401);
      assert.match(west.error.message, /OLM_CONSOLE_FLEET_SHARED_TOKENS=true/);
    } finally {
      process.env.OLM_CONSOLE_FLEET_SHARED_TOKENS = 'true';
    }
  });

  test('a person who may not list ManagedClusters sees the configured clusters and why', async () => {
    // alice administers namespace team1 only.
    const { status, body } = await call<FleetClustersResponse>(clusters, '/api/fleet/clusters', 'alice');
    assert.equal(status, 200);
    assert.deepEqual(
      body.clusters.map((c) => [c.name, c.managed]),
      [
        ['prod-east', undefined],
        ['staging', undefined],
      ],
    );
    assert.match(
      body.hub?.note ?? '',
      /you may not list its ManagedClusters: only the clusters the console is configured/,
    );
  });
});
