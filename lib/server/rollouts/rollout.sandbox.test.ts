// An upgrade rolled out across the sandbox fleet (lib/sandbox/fleet.ts: prod-east is the OCM hub,
// managed as local-cluster, and prod-west), written and read through this module as the hub's
// admin, as lib/server/rollouts/rollout.cluster.test.ts does on a real OCM v1.0.0 fleet. prod-west,
// labelled canary=true, is the canary. Version A (flagpole's stable channel) reaches both clusters
// canary first; the upgrade moves the Subscription to a channel the catalog lacks, which OLM
// cannot resolve, and must stop at the canary: local-cluster keeps A, managed by no ManifestWork.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { SUBSCRIPTION_TYPE } from '../../olm/resources/subscription';
import { clientAs, waitFor } from '../testing/cluster';
import { flagpoleChoices, startSandboxOcmFleet, type SandboxOcmFleet } from '../testing/ocm-fleet';
import { listRollouts, readRollout, stopRollout } from './read';
import { MANIFEST_WORK_TYPE, MWRS_TYPE } from './resources';
import { writeRollout } from './write';

const A = flagpoleChoices();
// A short soak keeps the test short; the console's default for an upgrade is a minute.
const B = flagpoleChoices({ channel: 'no-such-channel', minSuccessTime: '3s' });

type Sub = { spec: { channel?: string }; status?: { installedCSV?: string; state?: string } };
type Work = { metadata: { name: string; namespace: string } };

describe('an upgrade across the sandbox fleet stops at an unhealthy canary', () => {
  let fleet: SandboxOcmFleet;
  let hub: KubeClient;
  let clients: Record<string, KubeClient>;

  before(async () => {
    fleet = await startSandboxOcmFleet({ count: 2, seed: false });
    hub = fleet.hub;
    clients = { 'local-cluster': hub, 'prod-west': clientAs(fleet.fleet.clusters[1]!.sandbox, 'admin') };
  });
  after(async () => {
    await fleet?.stop();
  });

  const subscription = async (cluster: string) => {
    try {
      return await clients[cluster]!.get<Sub>(SUBSCRIPTION_TYPE, 'flagpole', 'flagpole-system');
    } catch (err) {
      if (isKubeError(err, 404)) return undefined;
      throw err;
    }
  };
  const rows = async () =>
    (await readRollout(hub, 'rollouts', 'flagpole')).view.waves.map((w) =>
      w.clusters.map((c) => `${w.name || 'wave'} ${c.cluster} ${c.state} ${c.feedback.installedCSV ?? '-'}`),
    );

  test('version A reaches both clusters, the canary first, each healthy at the channel head', async () => {
    await writeRollout(hub, A);
    const healthy = [['canary prod-west healthy flagpole.v1.0.1'], ['wave local-cluster healthy flagpole.v1.0.1']];
    await waitFor(
      'both clusters healthy',
      async () => (JSON.stringify(await rows()) === JSON.stringify(healthy) ? true : undefined),
      30_000,
    );
    const [summary] = (await listRollouts(hub)).rollouts;
    assert.deepEqual([summary?.name, summary?.generation, summary?.set], ['flagpole', 1, 'flagpole']);
  });

  test('the upgrade is generation 2; with the canary unhealthy, local-cluster keeps A', async () => {
    // A rollout's works are usually older than an upgrade's soak; OCM counts it from a work's creation.
    await new Promise((r) => setTimeout(r, 3_500));
    const { written, preview } = await writeRollout(hub, B);
    assert.equal(preview.generation, 2);
    assert.deepEqual(written, [
      'Placement rollouts/flagpole',
      'deleted ManifestWorkReplicaSet rollouts/flagpole',
      'ManifestWorkReplicaSet rollouts/flagpole-g2',
    ]);
    const canary = await waitFor(
      'the canary unhealthy',
      async () => {
        const d = await readRollout(hub, 'rollouts', 'flagpole');
        const c = d.view.waves[0]?.clusters[0];
        return c?.state === 'unhealthy' ? { d, c } : undefined;
      },
      30_000,
    );
    assert.deepEqual([canary.d.generation, canary.d.set], [2, 'flagpole-g2']);
    assert.deepEqual([canary.c.cluster, canary.c.feedback.resolutionFailed], ['prod-west', 'True']);
    // Past the soak: the canary is judged again and still holds the next wave.
    await new Promise((r) => setTimeout(r, 4_000));
    assert.deepEqual(await rows(), [['canary prod-west unhealthy flagpole.v1.0.1'], ['wave local-cluster waiting -']]);
    const works = await hub.listAll<Work>(MANIFEST_WORK_TYPE, {
      labelSelector: 'work.open-cluster-management.io/manifestworkreplicaset',
    });
    assert.deepEqual(
      works.items.map((w) => `${w.metadata.namespace}/${w.metadata.name}`),
      ['prod-west/flagpole-g2'],
    );
    const local = await subscription('local-cluster');
    assert.deepEqual([local?.spec.channel, local?.status?.installedCSV], ['stable', 'flagpole.v1.0.1']);
    assert.equal((await subscription('prod-west'))?.spec.channel, 'no-such-channel');
  });

  test('stopped, every generation goes and both installs stay', async () => {
    await stopRollout(hub, 'rollouts', 'flagpole');
    await waitFor('no set left', async () =>
      (await hub.listAll(MWRS_TYPE, { namespace: 'rollouts' })).items.length === 0 ? true : undefined,
    );
    for (const cluster of ['local-cluster', 'prod-west'])
      assert.equal((await subscription(cluster))?.status?.installedCSV, 'flagpole.v1.0.1', cluster);
  });
});
