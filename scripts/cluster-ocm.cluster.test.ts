// `npm run cluster -- --fleet 2` end to end: two real clusters (without OLM v1, whose start is
// tested in scripts/cluster-olm-v1.test.ts), the first also Open Cluster Management's hub; both
// must be Joined and Available ManagedClusters, a ManifestWork on the hub must make its ConfigMap on
// its managed cluster and take it away when deleted, config-policy-controller on each must evaluate
// an OperatorPolicy a ManifestWork delivers, its compliance coming back to the hub as status
// feedback, and SIGTERM must leave no process behind.
// Writes the fleet's start time and resident memory as test diagnostics. Skipped when
// cluster/build.sh has not built the real cluster's or OCM's programs (this test builds nothing).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterProgramsMissing } from './cluster-programs';

const root = join(import.meta.dirname, '..');
const skip = clusterProgramsMissing() ?? clusterProgramsMissing('ocm-paths');

function kubectl(kubeconfig: string, args: string[], input?: string) {
  const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { input, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

async function eventually(what: string | (() => string), probe: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline)
      assert.fail(`not within ${timeoutMs / 1000} s: ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Processes whose command line names the folder (every cluster and OCM process names its data folder). */
function processesIn(dir: string): { pid: number; cmd: string; rssKb: number }[] {
  const out: { pid: number; cmd: string; rssKb: number }[] = [];
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e) || Number(e) === process.pid) continue;
    try {
      const cmd = readFileSync(`/proc/${e}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      if (!cmd.includes(dir)) continue;
      const rss = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${e}/status`, 'utf8'));
      out.push({ pid: Number(e), cmd, rssKb: Number(rss?.[1] ?? 0) });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const manifestWork = (cluster: string) => ({
  apiVersion: 'work.open-cluster-management.io/v1',
  kind: 'ManifestWork',
  metadata: { name: 'hello', namespace: cluster },
  spec: {
    workload: {
      manifests: [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'hello-from-the-hub', namespace: 'default' },
          data: { cluster },
        },
      ],
    },
  },
});

if (skip) test('npm run cluster -- --fleet 2 (Open Cluster Management)', (t) => t.skip(skip));
else
  describe('npm run cluster -- --fleet 2 (Open Cluster Management)', () => {
    let dir: string;
    let fleet: ChildProcess;
    let output = '';
    let hub: string;
    let managed: Map<string, string>;
    let startSeconds: number;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'olm-console-fleet-'));
      const t0 = Date.now();
      fleet = spawn(
        process.execPath,
        ['--import', 'tsx', join(root, 'scripts', 'cluster.ts'), '--fleet', '2', '--data-dir', dir, '--no-olm-v1'],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      fleet.stdout!.on('data', (d: Buffer) => (output += d));
      fleet.stderr!.on('data', (d: Buffer) => (output += d));
      await new Promise<void>((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`no "fleet ready" in 600 s:\n${output}`)), 600_000);
        fleet.stdout!.on('data', () => /^fleet ready$/m.test(output) && (clearTimeout(timer), res()));
        fleet.once('exit', (code) => (clearTimeout(timer), rej(new Error(`the fleet exited (${code}):\n${output}`))));
      });
      startSeconds = (Date.now() - t0) / 1000;
      hub = /^hub kubeconfig: (.+)$/m.exec(output)![1]!;
      managed = new Map([...output.matchAll(/^managedcluster (\S+): (.+)$/gm)].map((m) => [m[1]!, m[2]!]));
    });

    after(() => {
      if (fleet?.exitCode === null && fleet.signalCode === null) fleet.kill('SIGKILL');
      for (const p of dir ? processesIn(dir) : []) process.kill(p.pid, 'SIGKILL');
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('the hub has both clusters as ManagedClusters, Joined and Available, in the default set', (t) => {
      const r = kubectl(hub, ['get', 'managedclusters', '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      const items = (
        JSON.parse(r.stdout) as {
          items: {
            metadata: { name: string; labels?: Record<string, string> };
            spec: { hubAcceptsClient?: boolean };
            status?: { conditions?: { type: string; status: string }[] };
          }[];
        }
      ).items;
      assert.deepEqual(items.map((i) => i.metadata.name).sort(), ['cluster2', 'local-cluster']);
      for (const i of items) {
        const status = (type: string) => i.status?.conditions?.find((c) => c.type === type)?.status;
        assert.equal(i.spec.hubAcceptsClient, true, i.metadata.name);
        assert.equal(status('ManagedClusterJoined'), 'True', i.metadata.name);
        assert.equal(status('ManagedClusterConditionAvailable'), 'True', i.metadata.name);
        assert.equal(i.metadata.labels?.['cluster.open-cluster-management.io/clusterset'], 'default');
      }
      // local-cluster is the hub itself; cluster2 a cluster of its own.
      assert.equal(managed.get('local-cluster'), hub);
      assert.notEqual(managed.get('cluster2'), hub);
      const rss = processesIn(dir).reduce((s, p) => s + p.rssKb, 0);
      t.diagnostic(`fleet ready in ${startSeconds.toFixed(0)} s; resident ${(rss / 1024).toFixed(0)} MB in all`);
    });

    test('a ManifestWork makes its ConfigMap on its managed cluster, and deleting it removes it', async (t) => {
      const cluster2 = managed.get('cluster2')!;
      const configMap = () =>
        kubectl(cluster2, ['get', 'configmap', 'hello-from-the-hub', '-n', 'default', '-o', 'json']);
      assert.notEqual(configMap().code, 0, 'no such ConfigMap before the ManifestWork');
      const t0 = Date.now();
      const applied = kubectl(hub, ['apply', '-f', '-'], JSON.stringify(manifestWork('cluster2')));
      assert.equal(applied.code, 0, applied.stderr);
      await eventually('the ConfigMap on cluster2', () => configMap().code === 0, 120_000);
      const made = (Date.now() - t0) / 1000;
      assert.deepEqual((JSON.parse(configMap().stdout) as { data: object }).data, { cluster: 'cluster2' });
      // Only on its own cluster: the hub (local-cluster) has none.
      assert.notEqual(kubectl(hub, ['get', 'configmap', 'hello-from-the-hub', '-n', 'default']).code, 0);
      await eventually(
        'the ManifestWork to report Applied',
        () =>
          kubectl(hub, [
            'get',
            'manifestwork',
            'hello',
            '-n',
            'cluster2',
            '-o',
            'jsonpath={.status.conditions[?(@.type=="Applied")].status}',
          ]).stdout === 'True',
        60_000,
      );
      const t1 = Date.now();
      const deleted = kubectl(hub, ['delete', 'manifestwork', 'hello', '-n', 'cluster2']);
      assert.equal(deleted.code, 0, deleted.stderr);
      await eventually('the ConfigMap to be gone from cluster2', () => configMap().code !== 0, 120_000);
      t.diagnostic(`ConfigMap made in ${made.toFixed(1)} s, removed in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
    });

    test('config-policy-controller evaluates a delivered OperatorPolicy; its compliance comes back', async (t) => {
      for (const [cluster, kubeconfig] of managed) {
        assert.match(output, new RegExp(`^config-policy-controller ${cluster}: ready in [\\d.]+ s`, 'm'));
        // What OCM's klusterlet would let its work agent do, with the fleet's aggregated ClusterRole.
        const canI = kubectl(kubeconfig, [
          'auth',
          'can-i',
          'create',
          'operatorpolicies.policy.open-cluster-management.io',
          '-n',
          'open-cluster-management-policies',
          '--as=system:serviceaccount:open-cluster-management-agent:klusterlet-work-sa',
        ]);
        assert.equal(canI.stdout.trim(), 'yes', `${cluster}: ${canI.stderr}`);
      }
      // Inform only, for a package no catalog has: nothing is made, and the policy says what is missing.
      const policy = {
        apiVersion: 'policy.open-cluster-management.io/v1beta1',
        kind: 'OperatorPolicy',
        metadata: { name: 'no-such-operator', namespace: 'open-cluster-management-policies' },
        spec: {
          remediationAction: 'inform',
          complianceType: 'musthave',
          upgradeApproval: 'None',
          subscription: {
            namespace: 'no-such-ns',
            name: 'no-such-operator',
            channel: 'stable',
            source: 'no-such-catalog',
            sourceNamespace: 'olm',
          },
        },
      };
      const work = {
        apiVersion: 'work.open-cluster-management.io/v1',
        kind: 'ManifestWork',
        metadata: { name: 'policy', namespace: 'cluster2' },
        spec: {
          workload: { manifests: [policy] },
          manifestConfigs: [
            {
              resourceIdentifier: {
                group: 'policy.open-cluster-management.io',
                resource: 'operatorpolicies',
                name: 'no-such-operator',
                namespace: 'open-cluster-management-policies',
              },
              feedbackRules: [
                {
                  type: 'JSONPaths',
                  jsonPaths: [
                    { name: 'compliant', path: '.status.compliant' },
                    { name: 'message', path: '.status.conditions[?(@.type=="Compliant")].message' },
                  ],
                },
              ],
            },
          ],
        },
      };
      const t0 = Date.now();
      const applied = kubectl(hub, ['apply', '-f', '-'], JSON.stringify(work));
      assert.equal(applied.code, 0, applied.stderr);
      let feedback: Record<string, string> = {};
      await eventually(
        () => `the policy's compliance in the ManifestWork's feedback: ${JSON.stringify(feedback)}`,
        () => {
          const r = kubectl(hub, ['get', 'manifestwork', 'policy', '-n', 'cluster2', '-o', 'json']);
          const values =
            (
              JSON.parse(r.stdout || '{}') as {
                status?: {
                  resourceStatus?: {
                    manifests?: { statusFeedback?: { values?: { name: string; fieldValue: { string?: string } }[] } }[];
                  };
                };
              }
            ).status?.resourceStatus?.manifests?.[0]?.statusFeedback?.values ?? [];
          feedback = Object.fromEntries(values.map((v) => [v.name, v.fieldValue.string ?? '']));
          return feedback.compliant === 'NonCompliant';
        },
        120_000,
      );
      // config-policy-controller v0.16.0 operatorpolicy_status.go: calculateComplianceCondition, missingWantedCond.
      assert.match(feedback.message!, /^NonCompliant; /);
      assert.ok(feedback.message!.includes('the Subscription required by the policy was not found'), feedback.message);
      t.diagnostic(`compliance back on the hub in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      const controllers = processesIn(dir).filter((p) => p.cmd.includes('config-policy-controller controller'));
      const ready = [...output.matchAll(/^config-policy-controller \S+: ready .+$/gm)].map((m) => m[0]);
      const resident = controllers.map((p) => `${(p.rssKb / 1024).toFixed(0)} MB`);
      t.diagnostic(`${ready.join('; ')}; resident now: ${resident.join(', ')}`);
      // Only informed: no Subscription was made.
      const subs = kubectl(managed.get('cluster2')!, ['get', 'subscriptions', '-A', '-o', 'name']);
      assert.equal(subs.stdout.trim(), '', subs.stdout);
      assert.equal(kubectl(hub, ['delete', 'manifestwork', 'policy', '-n', 'cluster2']).code, 0);
    });

    test('SIGTERM stops every process of the fleet', async () => {
      assert.ok(processesIn(dir).length > 0);
      fleet.kill('SIGTERM');
      await new Promise<void>((res) => (fleet.exitCode !== null ? res() : fleet.once('exit', () => res())));
      await eventually(
        () =>
          `no process left: ${processesIn(dir)
            .map((p) => p.cmd.slice(0, 80))
            .join('; ')}`,
        () => processesIn(dir).length === 0,
        30_000,
      );
    });
  });
