// A rollout on a real Open Cluster Management v1.0.0 fleet (`npm run cluster -- --fleet 2`: the
// hub, also managed as local-cluster, and cluster2, each with real OLM v0 serving the shared
// gatekeeper catalog). Labelled canary=true, cluster2 is the canary. The rollout is previewed
// and written through this module as the hub's admin, and must: install the package on cluster2
// through cluster2's own OLM first, reach local-cluster only once cluster2's Subscription is
// healthy, bring each cluster's installed CSV back in status feedback and show both waves. Then
// an upgrade to a channel OLM cannot resolve (cluster2's OLM reports ResolutionFailed) must show
// the canary unhealthy with the Subscription's state from feedback and stop there: past the
// upgrade's soak, local-cluster still runs the first version on its first channel. Stopped, both
// installs stay. Skipped when the programs or the shared catalogs are missing (this test builds
// nothing).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../k8s/client';
import {
  eventually,
  gatekeeperChoices,
  GATEKEEPER as PKG,
  kubectl,
  realFleetMissing,
  startGatekeeperFleet,
  type OcmFleet,
} from '../testing/ocm-fleet';
import { previewRollout } from './preview';
import { readRollout, stopRollout } from './read';
import { MANIFEST_WORK_TYPE } from './resources';
import { writeRollout } from './write';

const skip = realFleetMissing();
const choices = gatekeeperChoices();

type Work = { metadata: { namespace: string; creationTimestamp: string } };

if (skip) test('a rollout across a real OCM fleet', (t) => t.skip(skip));
else
  describe('a rollout across a real OCM fleet: canary first, each cluster through its own OLM', () => {
    let fleet: OcmFleet;
    let hubKubeconfig: string;
    let managed: Map<string, string>;
    let hub: KubeClient;

    before(async () => {
      fleet = await startGatekeeperFleet();
      ({ hub } = fleet);
      ({ hubKubeconfig, managed } = fleet.real);
    });

    after(async () => {
      await fleet?.stop();
    });

    // The works of one generation's set (generation 1 is named after the rollout).
    const works = async (set = 'gatekeeper') =>
      (
        await hub.listAll<Work>(MANIFEST_WORK_TYPE, {
          labelSelector: `work.open-cluster-management.io/manifestworkreplicaset=rollouts.${set}`,
        })
      ).items;
    const subscription = (cluster: string) => {
      const r = kubectl(managed.get(cluster)!, ['get', 'subscription', PKG, '-n', 'gatekeeper-system', '-o', 'json']);
      return r.code === 0
        ? (JSON.parse(r.stdout) as { spec: { channel?: string }; status?: { installedCSV?: string; state?: string } })
        : undefined;
    };

    test('the preview picks cluster2 as the canary and local-cluster after it, and the dry run passes', async () => {
      const p = await previewRollout(hub, choices);
      assert.deepEqual(p.blockers, []);
      assert.deepEqual(
        [p.clusters.source, p.clusters.canary, p.clusters.rest, p.clusters.waves],
        ['guess', ['cluster2'], ['local-cluster'], 2],
      );
      assert.deepEqual(
        p.objects.map((o) => `${o.kind} ${o.name}`),
        [
          'Namespace rollouts',
          'ManagedClusterSetBinding default',
          'Placement gatekeeper',
          'ManifestWorkReplicaSet gatekeeper',
        ],
      );
      assert.ok(
        p.rights.every((r) => r.allowed),
        JSON.stringify(p.rights),
      );
    });

    test('a person without the rights on the hub gets each refusal named, and writing changes nothing', async () => {
      // A hub user who may read but not write: the built-in view role, nothing of OCM's.
      for (const args of [
        ['create', 'serviceaccount', 'viewer', '-n', 'default'],
        ['create', 'clusterrolebinding', 'viewer-view', '--clusterrole=view', '--serviceaccount=default:viewer'],
      ]) {
        const r = kubectl(hubKubeconfig, args);
        assert.equal(r.code, 0, r.stderr);
      }
      const token = kubectl(hubKubeconfig, ['create', 'token', 'viewer', '-n', 'default']).stdout.trim();
      const admin = new KubeConfig();
      admin.loadFromFile(hubKubeconfig);
      const kc = new KubeConfig();
      kc.loadFromOptions({
        clusters: [admin.getCurrentCluster()!],
        users: [{ name: 'viewer', token }],
        contexts: [{ name: 'viewer', cluster: admin.getCurrentCluster()!.name, user: 'viewer' }],
        currentContext: 'viewer',
      });
      const viewer = new KubeClient(kc);
      const p = await previewRollout(viewer, choices);
      assert.ok(
        p.blockers.some((b) => b.startsWith('you may not create manifestworkreplicasets in rollouts')),
        p.blockers.join('\n'),
      );
      assert.ok(
        p.blockers.some((b) => b.startsWith('you may not create placements in rollouts')),
        p.blockers.join('\n'),
      );
      await assert.rejects(writeRollout(viewer, choices), (err: Error & { code?: number }) => err.code === 409);
      assert.notEqual(kubectl(hubKubeconfig, ['get', 'namespace', 'rollouts']).code, 0, 'nothing was written');
    });

    test('written, it installs on the canary first and on local-cluster only once the canary is healthy', async (t) => {
      const { written } = await writeRollout(hub, choices);
      assert.equal(written.length, 4);
      const canaryWork = await eventually(
        () => 'a ManifestWork for cluster2',
        async () => (await works()).find((w) => w.metadata.namespace === 'cluster2'),
        60_000,
      );
      // Until cluster2's Subscription is installed, local-cluster gets nothing.
      let sawCanaryWaiting = false;
      await eventually(
        () => `cluster2's Subscription at latest known: ${JSON.stringify(subscription('cluster2')?.status)}`,
        async () => {
          const healthy = subscription('cluster2')?.status?.state === 'AtLatestKnown';
          if (!healthy && !(await works()).some((w) => w.metadata.namespace === 'local-cluster'))
            sawCanaryWaiting = true;
          return healthy;
        },
        300_000,
      );
      assert.ok(sawCanaryWaiting, 'local-cluster had no ManifestWork while the canary was installing');
      const second = await eventually(
        () => 'a ManifestWork for local-cluster',
        async () => (await works()).find((w) => w.metadata.namespace === 'local-cluster'),
        120_000,
      );
      t.diagnostic(
        `canary work ${canaryWork.metadata.creationTimestamp}, local-cluster work ${second.metadata.creationTimestamp}`,
      );
      await eventually(
        () => `local-cluster's Subscription: ${JSON.stringify(subscription('local-cluster')?.status)}`,
        () => subscription('local-cluster')?.status?.state === 'AtLatestKnown',
        300_000,
      );
      // Each through its own OLM, from each cluster's own catalog: the channel's head (the
      // starting CSV 3.18.0, then OLM's automatic upgrade) Succeeded on both.
      for (const cluster of ['cluster2', 'local-cluster'])
        await eventually(
          () => `${cluster}: CSV ${PKG}.v3.18.1 Succeeded`,
          () =>
            kubectl(managed.get(cluster)!, [
              'get',
              'csv',
              `${PKG}.v3.18.1`,
              '-n',
              'gatekeeper-system',
              '-o',
              'jsonpath={.status.phase}',
            ]).stdout === 'Succeeded',
          300_000,
        );
    });

    test("the rollout page's view: two waves, each cluster healthy with its installed CSV from status feedback", async () => {
      const detail = await eventually(
        () => 'both clusters healthy in the view',
        async () => {
          const d = await readRollout(hub, 'rollouts', 'gatekeeper');
          return d.view.waves.flatMap((w) => w.clusters).every((c) => c.state === 'healthy') &&
            d.view.waves.length === 2
            ? d
            : undefined;
        },
        120_000,
      );
      assert.deepEqual(
        detail.view.waves.map((w) => [w.name, w.clusters.map((c) => [c.cluster, c.state, c.feedback.installedCSV])]),
        [
          ['canary', [['cluster2', 'healthy', `${PKG}.v3.18.1`]]],
          ['', [['local-cluster', 'healthy', `${PKG}.v3.18.1`]]],
        ],
      );
      assert.equal(detail.package, PKG);
      assert.equal(detail.actions.stop.allowed, true);
      assert.deepEqual(detail.notes, []);
    });

    test('an upgrade to a channel OLM cannot resolve stops at the unhealthy canary: local-cluster keeps its version', async (t) => {
      const upgrade = { ...choices, channel: 'no-such-channel', version: undefined };
      const again = await previewRollout(hub, upgrade);
      assert.deepEqual([again.clusters.source, again.clusters.canary], ['decisions', ['cluster2']]);
      assert.equal(again.generation, 2);
      const { written } = await writeRollout(hub, upgrade);
      const started = Date.now();
      assert.deepEqual(written, [
        'Placement rollouts/gatekeeper',
        'deleted ManifestWorkReplicaSet rollouts/gatekeeper',
        'ManifestWorkReplicaSet rollouts/gatekeeper-g2',
      ]);
      const canary = await eventually(
        () => 'the canary unhealthy in the view',
        async () => {
          const d = await readRollout(hub, 'rollouts', 'gatekeeper');
          const c = d.view.waves[0]!.clusters[0]!;
          return c.state === 'unhealthy' ? { d, c } : undefined;
        },
        120_000,
      );
      assert.deepEqual([canary.d.generation, canary.d.set], [2, 'gatekeeper-g2']);
      assert.equal(canary.c.cluster, 'cluster2');
      assert.equal(canary.c.feedback.resolutionFailed, 'True');
      assert.equal(canary.c.feedback.installedCSV, `${PKG}.v3.18.1`);
      // The console's soak for an upgrade is a minute from the canary's new ManifestWork; past it,
      // and past the agent's next status sync (10 s), OCM has judged the canary again.
      const wait = Math.max(0, started + 60_000 + 25_000 - Date.now());
      t.diagnostic(`canary unhealthy after ${(Date.now() - started) / 1000} s; waiting ${wait / 1000} s more`);
      await new Promise((r) => setTimeout(r, wait));
      assert.deepEqual(
        (await works('gatekeeper-g2')).map((w) => w.metadata.namespace),
        ['cluster2'],
        'only the canary has the upgrade',
      );
      assert.deepEqual(await works('gatekeeper'), [], 'the first generation is gone');
      const d = await readRollout(hub, 'rollouts', 'gatekeeper');
      assert.deepEqual(
        d.view.waves.map((w) => [w.name, w.clusters.map((c) => [c.cluster, c.state])]),
        [
          ['canary', [['cluster2', 'unhealthy']]],
          ['', [['local-cluster', 'waiting']]],
        ],
      );
      const local = subscription('local-cluster');
      assert.deepEqual([local?.spec.channel, local?.status?.installedCSV], ['3.18', `${PKG}.v3.18.1`]);
      assert.equal(subscription('cluster2')?.spec.channel, 'no-such-channel');
    });

    test('stopped, every ManifestWork goes and both installs stay', async () => {
      await stopRollout(hub, 'rollouts', 'gatekeeper');
      await eventually(
        () => 'every ManifestWork of the rollout gone',
        async () => (await works('gatekeeper-g2')).length === 0 && (await works()).length === 0,
        120_000,
      );
      await new Promise((r) => setTimeout(r, 5_000));
      for (const cluster of ['cluster2', 'local-cluster'])
        assert.equal(subscription(cluster)?.status?.installedCSV, `${PKG}.v3.18.1`, cluster);
    });
  });
