// Whether the home cluster is an OCM hub, as people's pages learn it: a cluster whose discovery
// says it does not serve ManagedClusters is remembered as no hub, for everyone, for a bounded time
// (every person's first page would otherwise ask again); on a hub, a person refused the list (403)
// is told so, and that refusal stays theirs. Against a sandbox cluster that starts without OCM and is
// made a hub while the console runs (the ManagedCluster CRD created, as installing OCM would).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { CRD_TYPE } from '@/lib/k8s/core-kinds';
import { ocmHubCrds } from '@/lib/sandbox/ocm/crds';
import { startSandbox, type Sandbox } from '@/lib/sandbox/server/sandbox';
import { clientAs } from '@/lib/server/testing/cluster';
import { consoleRequest } from '@/lib/server/testing/console-request';
import { MANAGED_CLUSTER_TYPE, NO_HUB_MS, withHubMembers } from './hub-members';
import { fleetMembers } from './members';
import { fleetPerson } from './person';

describe('whether the home cluster is an OCM hub', () => {
  let dir: string;
  let sb: Sandbox;
  const seen = (user: string, now: number) => {
    const configured = fleetMembers();
    const person = fleetPerson(consoleRequest('/operatorhub', { token: sb.tokens[user]! }), configured);
    return withHubMembers(configured, person, now);
  };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'olm-hub-members-'));
    sb = await startSandbox({ port: 0, kubeconfigPath: join(dir, 'kubeconfig'), demo: false });
    process.env.OLM_CONSOLE_KUBECONFIG = sb.kubeconfigPath;
    process.env.OLM_CONSOLE_AUTH = 'token';
    process.env.OLM_CONSOLE_WARM_INDEX = 'false';
  });
  after(async () => {
    await sb.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a cluster without the ManagedCluster API is taken as no hub by everyone for a while', async () => {
    const t0 = Date.now();
    const first = await seen('admin', t0);
    assert.deepEqual(first.hub, { hub: false });
    assert.deepEqual(
      first.members.map((m) => m.name),
      fleetMembers().map((m) => m.name),
    );

    // OCM is installed now, and lists a cluster.
    const admin = clientAs(sb, 'admin');
    for (const crd of ocmHubCrds().filter(
      (c) => c.metadata.name === 'managedclusters.cluster.open-cluster-management.io',
    ))
      await admin.create(CRD_TYPE, crd);
    for (let i = 0; ; i++) {
      const listed = await admin.list(MANAGED_CLUSTER_TYPE).catch(() => undefined);
      if (listed) break;
      if (i > 100) throw new Error('ManagedClusters not served after the CRD was created');
      await new Promise((r) => setTimeout(r, 50));
    }
    await admin.create(MANAGED_CLUSTER_TYPE, {
      metadata: { name: 'lab' },
      spec: { hubAcceptsClient: true, managedClusterClientConfigs: [{ url: 'https://127.0.0.1:1' }] },
    });

    // Another person, within the time the 404 is remembered: nobody asks the cluster again.
    const within = await seen('bob', t0 + NO_HUB_MS - 1_000);
    assert.deepEqual(within.hub, { hub: false });
    assert.ok(!within.members.some((m) => m.name === 'lab'));

    // Once that time is over, a person's read finds the hub and the cluster it lists.
    const later = await seen('admin', t0 + NO_HUB_MS + 1_000);
    assert.deepEqual(later.hub, { hub: true });
    assert.ok(later.members.some((m) => m.name === 'lab' && m.managed?.source === 'hub'));
  });

  test('a person who may not list ManagedClusters is told so; that stays theirs', async () => {
    // Past the first test's window, on the hub it made: alice administers one namespace only.
    const t = Date.now() + 3 * NO_HUB_MS;
    const refused = await seen('alice', t);
    assert.equal(refused.hub.hub, true);
    assert.match(refused.hub.note ?? '', /you may not list its ManagedClusters/);
    assert.ok(!refused.members.some((m) => m.name === 'lab'));
    const admin = await seen('admin', t + 1_000);
    assert.deepEqual(admin.hub, { hub: true });
    assert.ok(admin.members.some((m) => m.name === 'lab'));
  });
});
