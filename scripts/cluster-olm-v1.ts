// `npm run cluster -- --olm-v1`: OLM v1 on the real cluster, as plain processes beside OLM v0.
// operator-controller v1.2.0 and catalogd from the module cluster/olm-v1 pins
// (docs/olm-v1/real-cluster.md), the v1 CRDs from the same module, and an image registry of our own
// on go-containerregistry (cluster/registry): each `--catalog`'s bundles are pushed to it as bundle
// images and the catalog, naming them, as a catalog image (scripts/cluster-olm-v1-catalogs.ts),
// added as a ClusterCatalog, which catalogd pulls, unpacks and serves over HTTPS; a
// ClusterExtension installs from those bundle images. Running out of a pod, as the module's release manifests (config/) would
// run them in one:
// - certificates from the cluster's CA: catalogd's (content server, webhook) and the registry's;
//   operator-controller trusts that CA for catalogd (--catalogd-cas-dir) and both pull from the
//   registry with it (--pull-cas-dir);
// - catalogd's mutating webhook (it labels each ClusterCatalog with its name, the label
//   ClusterExtension selectors use) registered by URL on loopback rather than through a Service;
// - no leader election (it needs an in-cluster namespace), private cache folders (both programs
//   empty theirs at start), every port on loopback and chosen free.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { catalogSourceName } from '../lib/sandbox/olm/catalog-sources';
import { signedCertificate } from './certificates';
import { renderInlineCatalog } from './cluster-catalogs';
import { renderV1Catalog } from './cluster-olm-v1-catalogs';

export const OLMV1_NAMESPACE = 'olmv1-system';
export const OLMV1_MODULE = 'github.com/operator-framework/operator-controller';
const execFileAsync = promisify(execFile);
const WEBHOOK_PATH = '/mutate-olm-operatorframework-io-v1-clustercatalog';

type Obj = Record<string, unknown>;
type SpawnResult = { status: number | null; stdout: Buffer };

/** What scripts/cluster.ts lends: its process runner, probes and kubectl. */
export interface ClusterContext {
  root: string;
  dataDir: string;
  /** Names catalogd's content address in the kubeconfigs, where the console reads it. */
  nameCatalogd: (url: string) => void;
  paths: Record<string, string>;
  catalogs: string[];
  run: (name: string, bin: string, args: string[], env?: Record<string, string>, restart?: boolean) => ChildProcess;
  until: (what: string, probe: () => Promise<boolean>, timeoutMs: number, alive: () => void) => Promise<void>;
  alive: (c: ChildProcess, name: string) => () => void;
  freePort: () => Promise<number>;
  accepts: (port: number) => Promise<boolean>;
  kubectl: (args: string[], input?: string) => string;
  kubectlOk: (args: string[]) => SpawnResult;
}

/** The operator-controller release cluster/olm-v1/go.mod pins. */
export function olmV1Version(root: string): string {
  const m = /^\s*github\.com\/operator-framework\/operator-controller (v\S+)/m.exec(
    readFileSync(join(root, 'cluster', 'olm-v1', 'go.mod'), 'utf8'),
  );
  if (!m) throw new Error('cluster/olm-v1/go.mod does not pin github.com/operator-framework/operator-controller');
  return m[1]!;
}

/** The v1 CRDs (ClusterCatalog, ClusterExtension) as the pinned release generates them (config/base). */
export function olmV1Crds(root: string): string[] {
  const version = olmV1Version(root);
  const r = spawnSync('go', ['mod', 'download', '-json', `${OLMV1_MODULE}@${version}`], {
    cwd: join(root, 'cluster', 'olm-v1'),
    env: { ...process.env, GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' },
  });
  if (r.status !== 0)
    throw new Error(`go mod download ${OLMV1_MODULE}@${version} failed: ${r.stderr.toString()}${r.stdout.toString()}`);
  const dir = (JSON.parse(r.stdout.toString()) as { Dir: string }).Dir;
  return [
    join(dir, 'config', 'base', 'catalogd', 'crd', 'bases', 'olm.operatorframework.io_clustercatalogs.yaml'),
    join(
      dir,
      'config',
      'base',
      'operator-controller',
      'crd',
      'bases',
      'olm.operatorframework.io_clusterextensions.yaml',
    ),
  ];
}

/**
 * catalogd's MutatingWebhookConfiguration as the release has it (config/base/catalogd/manager/webhook:
 * manifests.yaml with patch.yaml), its Service replaced by catalogd's loopback URL.
 */
export function catalogdWebhook(port: number, caPem: string): Obj {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'catalogd-mutating-webhook-configuration' },
    webhooks: [
      {
        name: 'inject-metadata-name.olm.operatorframework.io',
        admissionReviewVersions: ['v1'],
        clientConfig: {
          url: `https://127.0.0.1:${port}${WEBHOOK_PATH}`,
          caBundle: Buffer.from(caPem).toString('base64'),
        },
        failurePolicy: 'Fail',
        sideEffects: 'None',
        timeoutSeconds: 10,
        rules: [
          {
            apiGroups: ['olm.operatorframework.io'],
            apiVersions: ['v1'],
            operations: ['CREATE', 'UPDATE'],
            resources: ['clustercatalogs'],
          },
        ],
        matchConditions: [
          {
            name: 'MissingOrIncorrectMetadataNameLabel',
            expression:
              "'name' in object.metadata && (!has(object.metadata.labels) || !('olm.operatorframework.io/metadata.name' in object.metadata.labels) || object.metadata.labels['olm.operatorframework.io/metadata.name'] != object.metadata.name)",
          },
        ],
      },
    ],
  };
}

/** A ClusterCatalog for an image in the registry. */
export function clusterCatalog(name: string, ref: string): Obj {
  return {
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterCatalog',
    metadata: { name },
    spec: { source: { type: 'Image', image: { ref } } },
  };
}

/** A serving certificate from the cluster's CA (ca.crt, ca.key in the data folder), made once per set of names. */
function servingCertificate(dir: string, name: string, names: string): void {
  signedCertificate(dir, name, 'ca', `/CN=${name}`, `subjectAltName=${names}\nextendedKeyUsage=serverAuth\n`);
}

/**
 * Starts OLM v1 and returns once every ClusterCatalog is Serving (printing
 * `clustercatalog NAME: Serving` for each).
 */
export async function startOlmV1(ctx: ClusterContext): Promise<void> {
  const { dataDir, paths, run, until, alive, freePort, accepts, kubectl, kubectlOk } = ctx;
  const d = (n: string) => join(dataDir, n);
  const v1Dir = d('olm-v1');
  // The folder of CA certificates both programs are given (--catalogd-cas-dir, --pull-cas-dir):
  // containers/image reads its `*.crt` files as CAs.
  const caDir = join(v1Dir, 'ca');
  mkdirSync(caDir, { recursive: true });
  const caPem = readFileSync(d('ca.crt'), 'utf8');
  writeFileSync(join(caDir, 'ca.crt'), caPem);
  servingCertificate(
    dataDir,
    'catalogd',
    'DNS:localhost,IP:127.0.0.1,DNS:catalogd-service.olmv1-system.svc,DNS:catalogd-service.olmv1-system.svc.cluster.local',
  );
  servingCertificate(dataDir, 'registry', 'DNS:localhost,IP:127.0.0.1');

  // The CRDs first: nothing else needs them until the ClusterCatalogs are created.
  kubectl(['apply', '--server-side', '--force-conflicts', ...olmV1Crds(ctx.root).flatMap((f) => ['-f', f])]);
  kubectl(
    ['apply', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: OLMV1_NAMESPACE } }),
  );

  // The registry (in memory: every start pushes again) and one catalog image per --catalog. It
  // stands for a registry pod, so a crash restarts it (`run`'s restart) and restoreRegistry
  // pushes its images again.
  const regPort = await freePort();
  const registry = run(
    'olm-v1-registry',
    paths.registry!,
    ['serve', '--addr', `127.0.0.1:${regPort}`, '--tls-cert', d('registry.crt'), '--tls-key', d('registry.key')],
    {},
    true,
  );
  await until('the image registry', () => accepts(regPort), 30_000, alive(registry, 'registry'));
  const catalogs: { name: string; ref: string }[] = [];
  // Not spawnSync: while this process waits, it must keep reading the registry's log, or the
  // registry blocks writing it and the push never ends.
  const push = async (kind: 'catalog' | 'bundle', dir: string, ref: string): Promise<string> => {
    try {
      const { stdout } = await execFileAsync(paths.registry!, [`push-${kind}`, '--ca', d('ca.crt'), dir, ref], {
        encoding: 'utf8',
      });
      return stdout.trim();
    } catch (err) {
      throw new Error(
        `registry push-${kind} ${dir} ${ref} failed: ${(err as { stderr?: string }).stderr ?? (err as Error).message}`,
      );
    }
  };
  // Every bundle of a catalog in one process, which prints "REF<TAB>DIGEST" per bundle: hundreds of
  // processes, one per bundle, cost more than the pushes themselves.
  const pushBundles = (refs: { dir: string; ref: string }[]): Promise<string[]> =>
    new Promise((res, rej) => {
      const child = spawn(paths.registry!, ['push-bundles', '--ca', d('ca.crt')], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (err += b.toString()));
      child.once('error', rej);
      child.once('exit', (code) => {
        if (code !== 0) return rej(new Error(`registry push-bundles failed (${code}): ${err}`));
        const digests = new Map(
          out
            .trim()
            .split('\n')
            .map((l) => l.split('\t') as [string, string]),
        );
        res(refs.map((r) => digests.get(r.ref) ?? ''));
      });
      child.stdin.end(refs.map((r) => `${r.dir}\t${r.ref}\n`).join(''));
    });
  // Every push made, to be made again into a restarted (empty) registry.
  const bundlePushes: { dir: string; ref: string }[] = [];
  const catalogPushes: { dir: string; ref: string }[] = [];
  for (const dir of ctx.catalogs) {
    const name = catalogSourceName(dir);
    // The inline copy scripts/cluster.ts made (reused), its bundles pushed as images.
    const inline = renderInlineCatalog(resolve(dir), d(join('catalogs', name)));
    // Catalog content is hostile: a package name becomes a repository name only in the
    // characters a registry path allows.
    const repo = (pkg: string) =>
      `127.0.0.1:${regPort}/bundles/${
        pkg
          .toLowerCase()
          .replace(/[^a-z0-9._-]+/g, '-')
          .replace(/^[._-]+/, '') || 'package'
      }`;
    const tag = (bundle: string) =>
      bundle
        .replace(/[^\w.-]+/g, '-')
        .replace(/^[.-]+/, '')
        .slice(0, 128) || 'bundle';
    const v1 = await renderV1Catalog(resolve(dir), inline.dir, join(v1Dir, 'catalogs', name), async (bundles) => {
      const refs = bundles.map((b) => ({ dir: b.dir, ref: `${repo(b.pkg)}:${tag(b.bundle)}` }));
      const digests = bundles.length ? await pushBundles(refs) : [];
      bundlePushes.push(...refs);
      return bundles.map((b, i) => `${repo(b.pkg)}@${digests[i]}`);
    });
    const ref = `127.0.0.1:${regPort}/catalogs/${name}:latest`;
    await push('catalog', v1.dir, ref);
    catalogPushes.push({ dir: v1.dir, ref });
    console.log(`catalog image ${ref}: ${v1.bundles} bundle images`);
    catalogs.push({ name, ref });
  }

  if (catalogPushes.length)
    restoreRegistry(regPort, caPem, catalogPushes[0]!.ref, async () => {
      if (bundlePushes.length) await pushBundles(bundlePushes);
      for (const c of catalogPushes) await push('catalog', c.dir, c.ref);
      return `${bundlePushes.length} bundle images and ${catalogPushes.length} catalog images`;
    });

  // catalogd: content server, webhook and metrics on loopback (probes too), TLS from the cluster CA.
  const [contentPort, webhookPort, metricsPort, catalogdProbes, ocProbes] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  // The console reads ClusterCatalog content only where the kubeconfig says catalogd serves.
  ctx.nameCatalogd(`https://127.0.0.1:${contentPort}`);
  const env = { KUBECONFIG: d('kubeconfig'), TMPDIR: join(v1Dir, 'tmp') };
  mkdirSync(env.TMPDIR, { recursive: true });
  const catalogd = run(
    'catalogd',
    paths.catalogd!,
    [
      `--kubeconfig=${d('kubeconfig')}`,
      `--tls-cert=${d('catalogd.crt')}`,
      `--tls-key=${d('catalogd.key')}`,
      `--catalogs-server-addr=127.0.0.1:${contentPort}`,
      `--external-address=127.0.0.1:${contentPort}`,
      `--webhook-server-port=${webhookPort}`,
      `--metrics-bind-address=127.0.0.1:${metricsPort}`,
      `--health-probe-bind-address=127.0.0.1:${catalogdProbes}`,
      `--cache-dir=${join(v1Dir, 'catalogd-cache')}`,
      `--pull-cas-dir=${caDir}`,
      `--system-namespace=${OLMV1_NAMESPACE}`,
    ],
    env,
    true,
  );
  await until("catalogd's webhook", () => accepts(webhookPort), 60_000, alive(catalogd, 'catalogd'));
  kubectl(['apply', '-f', '-'], JSON.stringify(catalogdWebhook(webhookPort, caPem)));

  run(
    'operator-controller',
    paths['operator-controller']!,
    [
      `--kubeconfig=${d('kubeconfig')}`,
      `--health-probe-bind-address=127.0.0.1:${ocProbes}`,
      `--cache-path=${join(v1Dir, 'operator-controller-cache')}`,
      `--catalogd-cas-dir=${caDir}`,
      `--pull-cas-dir=${caDir}`,
      `--system-namespace=${OLMV1_NAMESPACE}`,
    ],
    env,
    true,
  );

  kubectl([
    'wait',
    '--for=condition=Established',
    '--timeout=60s',
    'crd/clustercatalogs.olm.operatorframework.io',
    'crd/clusterextensions.olm.operatorframework.io',
  ]);
  await until(
    'the OLM v1 kinds to be listable',
    async () => kubectlOk(['get', 'clustercatalogs,clusterextensions']).status === 0,
    60_000,
    () => {},
  );
  if (catalogs.length)
    kubectl(['apply', '-f', '-'], catalogs.map((c) => JSON.stringify(clusterCatalog(c.name, c.ref))).join('\n'));
  for (const c of catalogs) {
    await until(
      `ClusterCatalog ${c.name} to be Serving`,
      async () =>
        kubectlOk([
          'get',
          'clustercatalog',
          c.name,
          '-o',
          'jsonpath={.status.conditions[?(@.type=="Serving")].status}',
        ]).stdout.toString() === 'True',
      180_000,
      // A crashed registry is restarted and refilled, and catalogd retries its pull meanwhile.
      () => {},
    );
    console.log(`clustercatalog ${c.name}: Serving`);
  }
}

/**
 * Watches the registry for an empty restart and pushes every image again. The registry keeps
 * images in memory, so after a crash `run` starts it empty; catalogd's status and the catalogs
 * name images by digest, and those must answer again. The pushes build each image from files that
 * stay in the data folder, without times (cluster/registry), so they give the same digests.
 * `probeRef` is an image pushed last at start: while it answers, the registry is whole.
 */
function restoreRegistry(port: number, ca: string, probeRef: string, pushAll: () => Promise<string>): void {
  const [repo, tag] = [probeRef.slice(probeRef.indexOf('/') + 1, probeRef.lastIndexOf(':')), probeRef.split(':').pop()];
  const probe = () =>
    new Promise<'whole' | 'empty' | 'down'>((res) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port, path: `/v2/${repo}/manifests/${tag}`, method: 'HEAD', ca, timeout: 5000 },
        (r) => {
          r.resume();
          res(r.statusCode === 404 ? 'empty' : 'whole');
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => res('down'));
      req.end();
    });
  let busy = false;
  // Every 2 s: a HEAD on loopback, cheap beside a crash going unnoticed until an install fails.
  setInterval(() => {
    if (busy) return;
    busy = true;
    void probe()
      .then(async (state) => {
        if (state !== 'empty') return;
        console.error('olm-v1-registry: started empty after a restart; pushing its images again');
        console.error(`olm-v1-registry: pushed ${await pushAll()} again`);
      })
      .catch((err: unknown) => console.error(`olm-v1-registry: pushing again failed, retrying: ${String(err)}`))
      .finally(() => (busy = false));
  }, 2000).unref();
}
