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
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../../k8s/client';
import type { RolloutChoices } from '../../olm/rollout/choices';
import { sharedCatalog, sharedCatalogsMissing } from '../../testing/shared-catalogs';
import { clusterProgramsMissing } from '../../../scripts/cluster-programs';
import { previewRollout } from './preview';
import { readRollout, stopRollout } from './read';
import { MANIFEST_WORK_TYPE } from './resources';
import { writeRollout } from './write';

const root = join(import.meta.dirname, '..', '..', '..');
const catalog = sharedCatalog('gatekeeper-operator-product-v4.20');
const skip =
  clusterProgramsMissing() ??
  clusterProgramsMissing('ocm-paths') ??
  (existsSync(catalog) ? undefined : sharedCatalogsMissing);

const PKG = 'gatekeeper-operator-product';
const choices: RolloutChoices = {
  name: 'gatekeeper',
  hubNamespace: 'rollouts',
  olm: 'v0',
  package: PKG,
  channel: '3.18',
  version: `${PKG}.v3.18.0`,
  approval: 'Automatic',
  installNamespace: 'gatekeeper-system',
  // scripts/cluster.ts names each --catalog's CatalogSource after its folder, in namespace olm.
  catalog: { name: 'gatekeeper-operator-product-v4-20', namespace: 'olm' },
  placement: { clusterSets: ['default'] },
  canary: { canary: 'true' },
  waveSize: 1,
};

function kubectl(kubeconfig: string, args: string[]) {
  const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

async function eventually<T>(what: () => string, probe: () => Promise<T | undefined> | T | undefined, ms: number) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) assert.fail(`not within ${ms / 1000} s: ${what()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

function processesIn(dir: string): number[] {
  const out: number[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${e}/cmdline`, 'utf8').includes(dir)) out.push(Number(e));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

type Work = { metadata: { namespace: string; creationTimestamp: string } };

if (skip) test('a rollout across a real OCM fleet', (t) => t.skip(skip));
else
  describe('a rollout across a real OCM fleet: canary first, each cluster through its own OLM', () => {
    let dir: string;
    let fleet: ChildProcess;
    let output = '';
    let hubKubeconfig: string;
    let managed: Map<string, string>;
    let hub: KubeClient;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'olm-console-rollout-'));
      fleet = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(root, 'scripts', 'cluster.ts'),
          '--fleet',
          '2',
          '--data-dir',
          dir,
          '--no-olm-v1',
          '--catalog',
          catalog,
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      fleet.stdout!.on('data', (d: Buffer) => (output += d));
      fleet.stderr!.on('data', (d: Buffer) => (output += d));
      await new Promise<void>((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`no "fleet ready" in 600 s:\n${output}`)), 600_000);
        fleet.stdout!.on('data', () => /^fleet ready$/m.test(output) && (clearTimeout(timer), res()));
        fleet.once('exit', (code) => (clearTimeout(timer), rej(new Error(`the fleet exited (${code}):\n${output}`))));
      });
      hubKubeconfig = /^hub kubeconfig: (.+)$/m.exec(output)![1]!;
      managed = new Map([...output.matchAll(/^managedcluster (\S+): (.+)$/gm)].map((m) => [m[1]!, m[2]!]));
      const kc = new KubeConfig();
      kc.loadFromFile(hubKubeconfig);
      hub = new KubeClient(kc);
      // The person's choice of canary, as a cluster administrator labels clusters on the hub.
      const labelled = kubectl(hubKubeconfig, ['label', 'managedcluster', 'cluster2', 'canary=true']);
      assert.equal(labelled.code, 0, labelled.stderr);
    });

    after(() => {
      if (fleet?.exitCode === null && fleet.signalCode === null) fleet.kill('SIGTERM');
      const deadline = Date.now() + 60_000;
      while (dir && processesIn(dir).length && Date.now() < deadline) spawnSync('sleep', ['0.5']);
      for (const pid of dir ? processesIn(dir) : []) process.kill(pid, 'SIGKILL');
      if (dir) rmSync(dir, { recursive: true, force: true });
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
