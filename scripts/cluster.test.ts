// `npm run cluster` end to end: the real etcd, kube-apiserver, kube-controller-manager and opm,
// started on a temporary data folder with one catalog, then asked what the sandbox is asked:
// /version, namespaces, the seed users' rights, OLM's CRDs, real OLM's CatalogSource and packages, the catalog over the registry gRPC
// API; and SIGTERM must leave no process behind. With `--no-olm-v1`, which it also checks: OLM v1
// (on by default) is tested in scripts/cluster-olm-v1.test.ts, and leaving it out here saves its
// start. Skipped when cluster/build.sh has not built the programs (they take minutes to build;
// this test does not build them).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterProgramsMissing } from './cluster-programs';
import { sharedCatalog, sharedCatalogsMissing } from '../lib/testing/shared-catalogs';

const root = join(import.meta.dirname, '..');
const catalog = sharedCatalog('gatekeeper-operator-product-v4.20');

const skip = clusterProgramsMissing() ?? (existsSync(catalog) ? undefined : sharedCatalogsMissing);

/** The kube-apiserver release cluster/go.mod pins. */
function pinnedKubernetes(): string {
  const m = /^\s*k8s\.io\/kubernetes (v\S+)/m.exec(readFileSync(join(root, 'cluster', 'go.mod'), 'utf8'));
  assert.ok(m, 'cluster/go.mod pins k8s.io/kubernetes');
  return m[1]!;
}

function kubectl(kubeconfig: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Every process descending from pid, from /proc. */
function descendants(pid: number): { pid: number; cmd: string }[] {
  const parent = new Map<number, number>();
  for (const e of readdirSync('/proc')) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      parent.set(Number(e), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: { pid: number; cmd: string }[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent) {
      if (pp !== p) continue;
      out.push({ pid: child, cmd: cmdline(child) ?? '' });
      walk(child);
    }
  };
  walk(pid);
  return out;
}

/** A process's command line; undefined once it is gone (or a zombie, whose is empty). */
function cmdline(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() || undefined;
  } catch {
    return undefined;
  }
}

if (skip) test('npm run cluster (the real cluster)', (t) => t.skip(skip));
else
  describe('npm run cluster (the real cluster)', () => {
    let dir: string;
    let cluster: ChildProcess;
    let output = '';
    let kubeconfig: string;
    let registry: string;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'olm-console-cluster-'));
      cluster = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(root, 'scripts', 'cluster.ts'),
          '--data-dir',
          dir,
          '--catalog',
          catalog,
          '--no-olm-v1',
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      cluster.stdout!.on('data', (d: Buffer) => (output += d));
      cluster.stderr!.on('data', (d: Buffer) => (output += d));
      await new Promise<void>((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`no "cluster ready" in 240 s:\n${output}`)), 240_000);
        const check = () => {
          if (/^cluster ready$/m.test(output)) return (clearTimeout(timer), res());
        };
        cluster.stdout!.on('data', check);
        cluster.once(
          'exit',
          (code) => (clearTimeout(timer), rej(new Error(`npm run cluster exited (${code}):\n${output}`))),
        );
      });
      kubeconfig = /^kubeconfig: (.+)$/m.exec(output)![1]!;
      // The CatalogSource is named after the folder, made a valid name.
      registry = /^catalog gatekeeper-operator-product-v4-20: (127\.0\.0\.1:\d+)$/m.exec(output)![1]!;
    });

    after(() => {
      if (cluster?.exitCode === null && cluster.signalCode === null) cluster.kill('SIGKILL');
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test("prints the admin kubeconfig, the seed users' beside it, and tokens.json", () => {
      assert.equal(kubeconfig, join(dir, 'kubeconfig'));
      for (const f of ['kubeconfig-alice', 'kubeconfig-bob']) assert.ok(existsSync(join(dir, f)), f);
      const tokens = JSON.parse(readFileSync(join(dir, 'tokens.json'), 'utf8')) as Record<string, string>;
      assert.deepEqual(Object.keys(tokens).sort(), ['admin', 'alice', 'bob']);
    });

    test('/version is the pinned release with its real git commit', () => {
      const r = kubectl(kubeconfig, ['get', '--raw', '/version']);
      assert.equal(r.code, 0, r.stderr);
      const v = JSON.parse(r.stdout) as Record<string, string>;
      assert.equal(v.gitVersion, pinnedKubernetes());
      assert.match(v.gitCommit!, /^[0-9a-f]{40}$/);
      assert.equal(v.major, '1');
      assert.equal(v.minor, pinnedKubernetes().split('.')[1]);
    });

    test('kubectl lists namespaces, team1 among them', () => {
      const r = kubectl(kubeconfig, ['get', 'ns', '-o', 'name']);
      assert.equal(r.code, 0, r.stderr);
      for (const ns of ['namespace/default', 'namespace/kube-system', 'namespace/team1'])
        assert.ok(r.stdout.split('\n').includes(ns), `${ns} in ${r.stdout}`);
    });

    test('alice administers team1 only; bob views and changes nothing', () => {
      const can = (user: string, ...args: string[]) =>
        kubectl(join(dir, `kubeconfig-${user}`), ['auth', 'can-i', ...args]).stdout.trim();
      assert.equal(can('alice', 'create', 'subscriptions.operators.coreos.com', '-n', 'team1'), 'yes');
      assert.equal(can('alice', 'create', 'subscriptions.operators.coreos.com', '-n', 'default'), 'no');
      assert.equal(can('alice', 'create', 'namespaces'), 'no');
      assert.equal(can('bob', 'list', 'subscriptions.operators.coreos.com', '-n', 'team1'), 'yes');
      assert.equal(can('bob', 'list', 'clusterserviceversions.operators.coreos.com', '-A'), 'yes');
      assert.equal(can('bob', 'create', 'subscriptions.operators.coreos.com', '-n', 'team1'), 'no');
      assert.equal(can('bob', 'create', 'configmaps', '-n', 'default'), 'no');
      const who = kubectl(join(dir, 'kubeconfig-bob'), ['create', 'configmap', 'x', '-n', 'default']);
      assert.notEqual(who.code, 0);
      assert.match(
        who.stderr,
        /configmaps is forbidden: User "bob" cannot create resource "configmaps" in API group "" in the namespace "default"/,
      );
    });

    test("OLM's CRDs are established and served", () => {
      const crds = kubectl(kubeconfig, ['get', 'crd', '-o', 'name']);
      assert.equal(crds.code, 0, crds.stderr);
      for (const kind of [
        'catalogsources',
        'clusterserviceversions',
        'installplans',
        'olmconfigs',
        'operatorconditions',
        'operatorgroups',
        'operators',
        'subscriptions',
      ]) {
        assert.ok(
          crds.stdout.includes(`customresourcedefinition.apiextensions.k8s.io/${kind}.operators.coreos.com`),
          `${kind} CRD in ${crds.stdout}`,
        );
      }
      const csv = kubectl(kubeconfig, ['get', 'csv', '-A']);
      assert.equal(csv.code, 0, csv.stderr);
      const sub = kubectl(join(dir, 'kubeconfig-alice'), ['get', 'subscriptions', '-n', 'team1']);
      assert.equal(sub.code, 0, sub.stderr);
    });

    test('real OLM serves the catalog: a READY CatalogSource, its packages through package-server', () => {
      const cs = kubectl(kubeconfig, [
        'get',
        'catalogsource',
        '-n',
        'olm',
        'gatekeeper-operator-product-v4-20',
        '-o',
        'jsonpath={.status.connectionState.lastObservedState}',
      ]);
      assert.equal(cs.stdout, 'READY', cs.stderr);
      const pm = kubectl(join(dir, 'kubeconfig-bob'), ['get', 'packagemanifests', '-n', 'olm', '-o', 'name']);
      assert.equal(pm.code, 0, pm.stderr);
      assert.match(pm.stdout, /packagemanifest\.packages\.operators\.coreos\.com\/gatekeeper-operator-product/);
    });

    test('--no-olm-v1 leaves OLM v1 out: no ClusterCatalog printed, no v1 API served', () => {
      assert.doesNotMatch(output, /^clustercatalog /m);
      const r = kubectl(kubeconfig, ['api-versions']);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(!r.stdout.split('\n').includes('olm.operatorframework.io/v1'), r.stdout);
      assert.ok(r.stdout.split('\n').includes('operators.coreos.com/v1alpha1'), r.stdout);
    });

    test('opm serves the catalog over the registry gRPC API', async () => {
      // The console's own client, loading the project's proto (proto/), as the console does.
      process.env.OLM_CONSOLE_PROTO_DIR ??= join(root, 'proto');
      const { RegistryClient } = await import('../lib/catalog/registry-client');
      const client = new RegistryClient(registry, 10_000);
      try {
        assert.equal(await client.healthCheck(), 'SERVING');
        assert.deepEqual(await client.listPackages(), ['gatekeeper-operator-product']);
      } finally {
        client.close();
      }
    });

    test('a crashed OLM operator is started again, as a kubelet restarts its pod, and OLM serves on', async () => {
      const catalogOperator = () =>
        descendants(cluster.pid!).find((p) => /\/\.cluster\/bin\/catalog-\S+ --namespace/.test(p.cmd));
      const first = catalogOperator();
      assert.ok(first, 'catalog-operator is running');
      // SIGQUIT makes a Go program dump its goroutines and exit 2, as a panic does.
      process.kill(first.pid, 'SIGQUIT');
      const deadline = Date.now() + 30_000;
      let again = catalogOperator();
      while ((!again || again.pid === first.pid) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 200));
        again = catalogOperator();
      }
      assert.ok(again && again.pid !== first.pid, `a new catalog-operator within 30 s:\n${output.slice(-2000)}`);
      assert.match(output, /catalog-operator exited \(2\); its log: \S+catalog-operator-\d+\.log/);
      assert.match(output, /catalog-operator: restart 1 in 1 s/);
      assert.equal(cluster.exitCode, null, 'the cluster goes on');
      // The restarted catalog operator connects to the registry again (IDLE, CONNECTING) and the
      // CatalogSource is READY again.
      let cs = kubectl(kubeconfig, [
        'get',
        'catalogsource',
        '-n',
        'olm',
        'gatekeeper-operator-product-v4-20',
        '-o',
        'jsonpath={.status.connectionState.lastObservedState}',
      ]);
      for (const until = Date.now() + 60_000; cs.stdout !== 'READY' && Date.now() < until;) {
        await new Promise((r) => setTimeout(r, 500));
        cs = kubectl(kubeconfig, [
          'get',
          'catalogsource',
          '-n',
          'olm',
          'gatekeeper-operator-product-v4-20',
          '-o',
          'jsonpath={.status.connectionState.lastObservedState}',
        ]);
      }
      assert.equal(cs.stdout, 'READY', cs.stderr);
    });

    test('SIGTERM stops every process it started', async () => {
      const started = descendants(cluster.pid!).filter((p) => p.cmd);
      for (const program of ['etcd', 'kube-apiserver', 'kube-controller-manager', 'opm']) {
        assert.ok(
          started.some((p) => p.cmd.includes(`/.cluster/bin/${program}-`)),
          `${program} among ${JSON.stringify(started)}`,
        );
      }
      const exited = new Promise<number | null>((res) => cluster.once('exit', (code) => res(code)));
      cluster.kill('SIGTERM');
      assert.equal(await exited, 0);
      // Gone, or at most on their way out for a moment.
      const deadline = Date.now() + 5000;
      let left = started;
      while (Date.now() < deadline) {
        left = started.filter((p) => cmdline(p.pid) === p.cmd);
        if (!left.length) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.deepEqual(left, []);
    });
  });
