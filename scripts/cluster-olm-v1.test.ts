// `npm run cluster` end to end with OLM v1, which it runs by default (operator-controller,
// catalogd, the image registry), on a temporary data folder with every shared catalog. Each
// catalog, pushed as an image, becomes a Serving ClusterCatalog whose content catalogd serves over
// HTTPS; a ClusterExtension of one package per catalog installs from the bundle image pushed
// beside it (most of their bundles are given only by image, with `olm.csv.metadata`: their images
// hold the objects derived for OLM v0's inline copy), after the registry was killed and refilled;
// and SIGTERM leaves no OLM v1 process behind. Skipped when cluster/build.sh has not built the programs (this test does not build
// them) or the shared catalogs are missing.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { get, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { clusterProgramsMissing } from './cluster-programs';
import { sharedCatalog, sharedCatalogsMissing } from '../lib/testing/shared-catalogs';

const root = join(import.meta.dirname, '..');
const catalogs = ['gatekeeper-operator-product-v4.20', 'certified-operators-v4.18', 'okderators'].map((c) =>
  sharedCatalog(c),
);
// ClusterCatalogs are named as CatalogSources: after the folder, made a valid name.
const NAME = 'gatekeeper-operator-product-v4-20';
const NAMES = ['gatekeeper-operator-product-v4-20', 'certified-operators-v4-18', 'okderators'];

const skip = clusterProgramsMissing() ?? (catalogs.every((c) => existsSync(c)) ? undefined : sharedCatalogsMissing);

function kubectl(kubeconfig: string, args: string[]): { code: number; stdout: string; stderr: string } {
  const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, ...args], { encoding: 'utf8', timeout: 30_000 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** GET over HTTPS trusting only the cluster's CA; the body un-gzipped. */
function fetchWithCa(url: string, ca: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((res, rej) => {
    get(url, { ca, headers: { 'accept-encoding': 'gzip' } }, (r) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => {
        const raw = Buffer.concat(chunks);
        const body = (r.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString();
        res({ status: r.statusCode ?? 0, type: String(r.headers['content-type']), body });
      });
    }).on('error', rej);
  });
}

/** The processes under pid whose command line matches, from /proc. */
function processes(pid: number, match: RegExp): number[] {
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
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, pp] of parent) {
      if (pp !== p) continue;
      if (match.test(cmd(child))) out.push(child);
      walk(child);
    }
  };
  walk(pid);
  return out;
}

function cmd(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

const V1 = /\/\.cluster\/bin\/(catalogd|operator-controller|registry)-/;

if (skip) test('npm run cluster (OLM v1 on the real cluster)', (t) => t.skip(skip));
else
  describe('npm run cluster (OLM v1 on the real cluster)', () => {
    let dir: string;
    let cluster: ChildProcess;
    let output = '';
    let kubeconfig: string;

    before(async () => {
      dir = mkdtempSync(join(tmpdir(), 'olm-console-cluster-v1-'));
      cluster = spawn(
        process.execPath,
        // No flag: OLM v1 is on by default.
        [
          '--import',
          'tsx',
          join(root, 'scripts', 'cluster.ts'),
          '--data-dir',
          dir,
          ...catalogs.flatMap((c) => ['--catalog', c]),
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      cluster.stdout!.on('data', (d: Buffer) => (output += d));
      cluster.stderr!.on('data', (d: Buffer) => (output += d));
      await new Promise<void>((res, rej) => {
        // The certified catalog's 739 bundles are pushed as images: a minute more under load.
        const timer = setTimeout(() => rej(new Error(`no "cluster ready" in 420 s:\n${output}`)), 420_000);
        cluster.stdout!.on('data', () => {
          if (!/^cluster ready$/m.test(output)) return;
          clearTimeout(timer);
          res();
        });
        cluster.once(
          'exit',
          (code) => (clearTimeout(timer), rej(new Error(`npm run cluster exited (${code}):\n${output}`))),
        );
      });
      kubeconfig = /^kubeconfig: (.+)$/m.exec(output)![1]!;
    });

    after(() => {
      if (cluster?.exitCode === null && cluster.signalCode === null) cluster.kill('SIGKILL');
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    test('prints each ClusterCatalog Serving before "cluster ready"', () => {
      for (const name of NAMES) {
        const serving = output.indexOf(`clustercatalog ${name}: Serving\n`);
        assert.ok(serving >= 0, output);
        assert.ok(serving < output.indexOf('cluster ready'), output);
      }
    });

    test("the v1 CRDs are established; catalogd's webhook labelled the ClusterCatalog", () => {
      for (const crd of ['clustercatalogs.olm.operatorframework.io', 'clusterextensions.olm.operatorframework.io']) {
        const r = kubectl(kubeconfig, [
          'get',
          'crd',
          crd,
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Established")].status}',
        ]);
        assert.equal(r.stdout, 'True', r.stderr);
      }
      const label = kubectl(kubeconfig, [
        'get',
        'clustercatalog',
        NAME,
        '-o',
        'jsonpath={.metadata.labels.olm\\.operatorframework\\.io/metadata\\.name}',
      ]);
      assert.equal(label.stdout, NAME, label.stderr);
    });

    test('the ClusterCatalog is Serving from a digest of the pushed image; its content URL answers', async () => {
      const r = kubectl(kubeconfig, ['get', 'clustercatalog', NAME, '-o', 'json']);
      assert.equal(r.code, 0, r.stderr);
      const cc = JSON.parse(r.stdout) as {
        status: {
          conditions: { type: string; status: string; reason: string }[];
          resolvedSource: { image: { ref: string } };
          urls: { base: string };
        };
      };
      const serving = cc.status.conditions.find((c) => c.type === 'Serving');
      assert.equal(serving?.status, 'True');
      assert.equal(serving?.reason, 'Available');
      assert.match(
        cc.status.resolvedSource.image.ref,
        new RegExp(`^127\\.0\\.0\\.1:\\d+/catalogs/${NAME}@sha256:[0-9a-f]{64}$`),
      );
      assert.match(cc.status.urls.base, new RegExp(`^https://127\\.0\\.0\\.1:\\d+/catalogs/${NAME}$`));
      const all = await fetchWithCa(`${cc.status.urls.base}/api/v1/all`, readFileSync(join(dir, 'ca.crt'), 'utf8'));
      assert.equal(all.status, 200);
      assert.equal(all.type, 'application/jsonl');
      const lines = all.body
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { schema: string; name?: string; package?: string });
      assert.ok(
        lines.some((l) => l.schema === 'olm.package' && l.name === 'gatekeeper-operator-product'),
        all.body.slice(0, 500),
      );
      assert.ok(lines.some((l) => l.schema === 'olm.bundle' && l.package === 'gatekeeper-operator-product'));
    });

    // Before the installs: they then pull their bundle images from the restarted registry.
    test('a crashed registry is started again and refilled with the same images', async () => {
      const registry = () => processes(cluster.pid!, /\/\.cluster\/bin\/registry-\S+ serve /);
      const [first] = registry();
      assert.ok(first, 'the registry is running');
      const cc = JSON.parse(kubectl(kubeconfig, ['get', 'clustercatalog', NAME, '-o', 'json']).stdout) as {
        status: { resolvedSource: { image: { ref: string } } };
      };
      const resolved = cc.status.resolvedSource.image.ref;
      process.kill(first, 'SIGKILL');
      const deadline = Date.now() + 240_000;
      while (!/olm-v1-registry: pushed \d+ bundle images and \d+ catalog images again/.test(output)) {
        assert.ok(Date.now() < deadline, `no refill within 240 s:\n${output.slice(-2000)}`);
        await new Promise((r) => setTimeout(r, 500));
      }
      assert.match(output, /olm-v1-registry: restart 1 in 1 s/);
      assert.equal(cluster.exitCode, null, 'the cluster goes on');
      const again = registry();
      assert.equal(again.length, 1);
      assert.notEqual(again[0], first);
      // The catalog image answers at the digest catalogd resolved before the crash.
      const [hostPort, digest] = [resolved.slice(0, resolved.indexOf('/')), resolved.split('@')[1]!];
      const repo = resolved.slice(resolved.indexOf('/') + 1, resolved.indexOf('@'));
      const ca = readFileSync(join(dir, 'ca.crt'), 'utf8');
      const head = await new Promise<number>((res, rej) =>
        request(`https://${hostPort}/v2/${repo}/manifests/${digest}`, { method: 'HEAD', ca }, (r) => {
          r.resume();
          res(r.statusCode ?? 0);
        })
          .on('error', rej)
          .end(),
      );
      assert.equal(head, 200);
    });

    test("a ClusterExtension of the catalog's package installs from its bundle image (Installed=True)", async () => {
      const objects = [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gatekeeper-v1' } },
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'installer', namespace: 'gatekeeper-v1' } },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'gatekeeper-v1-installer' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
          subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: 'gatekeeper-v1' }],
        },
        {
          apiVersion: 'olm.operatorframework.io/v1',
          kind: 'ClusterExtension',
          metadata: { name: 'gatekeeper' },
          spec: {
            namespace: 'gatekeeper-v1',
            serviceAccount: { name: 'installer' },
            source: { sourceType: 'Catalog', catalog: { packageName: 'gatekeeper-operator-product' } },
          },
        },
      ];
      const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, 'apply', '-f', '-'], {
        input: objects.map((o) => JSON.stringify(o)).join('\n'),
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      type Ext = {
        status?: {
          conditions?: { type: string; status: string; message: string }[];
          install?: { bundle: { name: string; version: string } };
        };
      };
      let ext: Ext = {};
      for (const until = Date.now() + 120_000; Date.now() < until;) {
        ext = JSON.parse(
          kubectl(kubeconfig, ['get', 'clusterextension', 'gatekeeper', '-o', 'json']).stdout || '{}',
        ) as Ext;
        if (ext.status?.conditions?.some((c) => c.type === 'Installed' && c.status === 'True')) break;
        await new Promise((res) => setTimeout(res, 1000));
      }
      const installed = ext.status?.conditions?.find((c) => c.type === 'Installed');
      assert.equal(installed?.status, 'True', JSON.stringify(ext.status));
      assert.match(
        installed!.message,
        /^Installed bundle 127\.0\.0\.1:\d+\/bundles\/gatekeeper-operator-product@sha256:[0-9a-f]{64} successfully$/,
      );
      // No channel given: the highest version of the package, whatever its channel.
      assert.equal(ext.status?.install?.bundle.name, 'gatekeeper-operator-product.v3.21.0');
      const crd = kubectl(kubeconfig, [
        'get',
        'crd',
        'gatekeepers.operator.gatekeeper.sh',
        '-o',
        'jsonpath={.metadata.labels.olm\\.operatorframework\\.io/owner-name}',
      ]);
      assert.equal(crd.stdout, 'gatekeeper', crd.stderr);
    });

    test('one package of every other shared catalog installs through operator-controller', async () => {
      // One package each, in one go (operator-controller resolves them side by side). The
      // certified catalog's bundles are all given by image with olm.csv.metadata; cloudnative-pg
      // resolves to its highest version, 1.30.0 (1.30.0-rc1 is a prerelease of it, lower). The
      // okderators csi-addons bundle pinned here carries its own objects, a Deployment among
      // them; its successor, the package's highest version, is given by image only.
      const wanted = [
        { name: 'cnpg', pkg: 'cloudnative-pg', bundle: 'cloudnative-pg.v1.30.0' },
        {
          name: 'csi-addons',
          pkg: 'csi-addons',
          version: '4.15.0-2024-05-27-184620',
          bundle: 'csi-addons.v4.15.0-2024-05-27-184620',
        },
      ];
      const objects = wanted.flatMap((w) => [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${w.name}-v1` } },
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'installer', namespace: `${w.name}-v1` } },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: `${w.name}-v1-installer` },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
          subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: `${w.name}-v1` }],
        },
        {
          apiVersion: 'olm.operatorframework.io/v1',
          kind: 'ClusterExtension',
          metadata: { name: w.name },
          spec: {
            namespace: `${w.name}-v1`,
            serviceAccount: { name: 'installer' },
            source: {
              sourceType: 'Catalog',
              catalog: { packageName: w.pkg, ...(w.version ? { version: w.version } : {}) },
            },
          },
        },
      ]);
      const r = spawnSync('kubectl', ['--kubeconfig', kubeconfig, 'apply', '-f', '-'], {
        input: objects.map((o) => JSON.stringify(o)).join('\n'),
        encoding: 'utf8',
      });
      assert.equal(r.status, 0, r.stderr);
      type Ext = {
        status?: {
          conditions?: { type: string; status: string; message: string }[];
          install?: { bundle: { name: string; version: string } };
        };
      };
      const read = (name: string) =>
        JSON.parse(kubectl(kubeconfig, ['get', 'clusterextension', name, '-o', 'json']).stdout || '{}') as Ext;
      const installed = (e: Ext) => e.status?.conditions?.some((c) => c.type === 'Installed' && c.status === 'True');
      for (const until = Date.now() + 180_000; Date.now() < until;) {
        if (wanted.every((w) => installed(read(w.name)))) break;
        await new Promise((res) => setTimeout(res, 1000));
      }
      for (const w of wanted) {
        const ext = read(w.name);
        assert.ok(installed(ext), `${w.name}: ${JSON.stringify(ext.status)}`);
        assert.equal(ext.status?.install?.bundle.name, w.bundle);
        assert.match(
          ext.status!.conditions!.find((c) => c.type === 'Installed')!.message,
          new RegExp(`^Installed bundle 127\\.0\\.0\\.1:\\d+/bundles/${w.pkg}@sha256:[0-9a-f]{64} successfully$`),
        );
      }
      // The Deployment the bundle's CSV declares, created in the install namespace; kwok runs its pod.
      let available = '';
      for (const until = Date.now() + 60_000; available !== 'True' && Date.now() < until;) {
        available = kubectl(kubeconfig, [
          'get',
          'deployment',
          '-n',
          'csi-addons-v1',
          'csi-addons-controller-manager',
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Available")].status}',
        ]).stdout;
        if (available !== 'True') await new Promise((res) => setTimeout(res, 1000));
      }
      assert.equal(available, 'True');
    });

    test("SIGTERM stops OLM v1's processes too", async () => {
      const started = processes(cluster.pid!, V1);
      assert.equal(
        started.length,
        3,
        `catalogd, operator-controller and the registry running: ${started.map(cmd).join('\n')}`,
      );
      const exited = new Promise<number | null>((res) => cluster.once('exit', (code) => res(code)));
      cluster.kill('SIGTERM');
      assert.equal(await exited, 0);
      const deadline = Date.now() + 5000;
      let left = started;
      while (left.length && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        left = started.filter((p) => V1.test(cmd(p)));
      }
      assert.deepEqual(left, []);
    });
  });
