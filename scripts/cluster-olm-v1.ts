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
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { catalogSourceName } from '../lib/sandbox/olm/catalog-sources';
import { signedCertificate } from './certificates';
import { renderInlineCatalog } from './cluster-catalogs';
import { renderV1Catalog } from './cluster-olm-v1-catalogs';
import type { Registry } from './cluster-registry';

export const OLMV1_NAMESPACE = 'olmv1-system';
export const OLMV1_MODULE = 'github.com/operator-framework/operator-controller';
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
  /** The cluster's image registry, where the bundle and catalog images go. */
  registry: Registry;
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

  // The CRDs first: nothing else needs them until the ClusterCatalogs are created.
  kubectl(['apply', '--server-side', '--force-conflicts', ...olmV1Crds(ctx.root).flatMap((f) => ['-f', f])]);
  kubectl(
    ['apply', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: OLMV1_NAMESPACE } }),
  );

  // One catalog image per --catalog, its bundles pushed as bundle images first (the registry is
  // scripts/cluster-registry.ts's, started by scripts/cluster.ts).
  const { registry } = ctx;
  const catalogs: { name: string; ref: string }[] = [];
  for (const dir of ctx.catalogs) {
    const name = catalogSourceName(dir);
    // The inline copy scripts/cluster.ts made (reused), its bundles pushed as images.
    const inline = renderInlineCatalog(resolve(dir), d(join('catalogs', name)));
    const v1 = await renderV1Catalog(resolve(dir), inline.dir, join(v1Dir, 'catalogs', name), async (bundles) => {
      const refs = bundles.map((b) => ({ dir: b.dir, ref: registry.bundleRef(b.pkg, b.bundle) }));
      const digests = await registry.pushBundles(refs);
      return refs.map((r, i) => `${r.ref.slice(0, r.ref.lastIndexOf(':'))}@${digests[i]}`);
    });
    const ref = `${registry.host}/catalogs/${name}:latest`;
    await registry.pushCatalog(v1.dir, ref);
    console.log(`catalog image ${ref}: ${v1.bundles} bundle images`);
    catalogs.push({ name, ref });
  }

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
