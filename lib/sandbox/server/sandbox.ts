// Starting the sandbox cluster: the store, the API server, the objects a fresh cluster has, and
// a kubeconfig per seed user so kubectl and the console can connect.
import { ensureOpenShiftConfig, OPENSHIFT_CONFIG_CRDS } from './openshift-config';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { closingCuts } from './server-closing';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import yaml from 'js-yaml';
import { bootstrapBindings, bootstrapClusterRoles, SEED_USERS } from '../auth/bootstrap-rbac';
import { startClusterRoleAggregation } from '../auth/cluster-role-aggregation';
import type { UserInfo } from '../auth/rbac';
import { olmCrds } from '../crds/olm-crds';
import { olmV1Crds } from '../crds/olm-v1-crds';
import { startOlm, type Olm } from '../olm/olm';
import { startOlmV1, type OlmV1 } from '../olm-v1/olm-v1';
import { v1Seeds } from '../olm-v1/seeds';
import { Store } from '../store/store';
import type { KObject } from '../store/types';
import { ApiServer } from './api-server';
import { ApiStatusError } from './http-util';
import { ensureServingCert } from './tls';
import { Faults } from './faults';
import { startWorkloads, type Workloads } from '../workloads/workloads';
import { seedPullSecret } from '../image-registry/pull-secret';
import { startSandboxRegistry, type SandboxRegistry } from '../image-registry/sandbox-registry';
import {
  CLUSTER_VERSION_CRD,
  ensureClusterProxy,
  ensureClusterVersion,
  ensureOperatorHub,
  OPERATOR_HUB_CRD,
  PROXY_CRD,
} from './openshift-cluster';

export type Flavor = 'upstream' | 'openshift';

export interface SandboxOptions {
  port?: number;
  host?: string;
  dataFile?: string;
  flavor?: Flavor;
  /** Where the admin kubeconfig is written; the seed users' files and tokens go beside it. */
  kubeconfigPath?: string;
  catalogs?: string[];
  /** Seed the demo catalog; default: when no catalogs are given (tests turn it off). */
  demo?: boolean;
  /** Changes a watch can resume across (tests make it small to see 410 Gone). */
  historyLimit?: number;
  /** How long operator Deployments take to report available (default 1.5 s). */
  deploymentDelayMs?: number;
  /**
   * `service`: catalogs report OLM's in-cluster address (`<name>.<ns>.svc:50051`) and run a pod
   * reachable only by port-forward, as in a real cluster; default `loopback` (127.0.0.1:port).
   */
  catalogAddress?: 'loopback' | 'service';
  /** Catalog image reference → FBC folder, for CatalogSources with `spec.image` (--catalog-image). */
  catalogImages?: Record<string, string>;
  /**
   * Catalogs give bundles as published catalogs do, by image in the sandbox's registry: the demo
   * catalog's objects only in images (it gives `olm.csv.metadata` and the image), and a --catalog
   * folder's image-only bundles in images of what the real cluster derives (--bundle-images on).
   */
  bundleImages?: boolean;
  /** Catalog folders served with every bundle by image only in the sandbox's registry (conformance). */
  imageCatalogs?: string[];
}

export interface Sandbox {
  url: string;
  /** PEM of the serving certificate, which is its own CA. */
  caPem: string;
  port: number;
  kubeconfigPath: string;
  /** User name → bearer token. */
  tokens: Record<string, string>;
  /** User name → that user's kubeconfig. */
  kubeconfigs: Record<string, string>;
  store: Store;
  api: ApiServer;
  olm: Olm;
  /** OLM v1: catalogd's ClusterCatalog controller and content server. */
  olmV1: OlmV1;
  /** Deployments, ReplicaSets, StatefulSets, DaemonSets and Jobs as kube-controller-manager runs them. */
  workloads: Workloads;
  /** The image registry serving the bundle images of the catalogs (docs/sandbox.md#bundle-images). */
  imageRegistry: SandboxRegistry;
  faults: Faults;
  flavor: Flavor;
  /**
   * Resolves once no request but a watch or a followed log has been in flight for `quietMs`, or
   * after `maxMs`. A test stopping its sandbox waits for this first: reads a route left running
   * (the rest of a Promise.all after one step failed) end against a cluster that still answers,
   * rather than retrying against a closed port and keeping the test's process alive.
   */
  whenQuiet(quietMs: number, maxMs: number): Promise<void>;
  stop(): Promise<void>;
}

/** The namespaces each flavor starts with (OLM's catalog and operator namespaces). */
export function flavorNamespaces(flavor: Flavor): { catalog: string; operators: string; olm: string; all: string[] } {
  const base = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];
  if (flavor === 'openshift') {
    return {
      catalog: 'openshift-marketplace',
      operators: 'openshift-operators',
      olm: 'openshift-operator-lifecycle-manager',
      all: [...base, 'openshift-marketplace', 'openshift-operators', 'openshift-operator-lifecycle-manager', 'team1'],
    };
  }
  return { catalog: 'olm', operators: 'operators', olm: 'olm', all: [...base, 'olm', 'operators', 'team1'] };
}

function loadTokens(file: string): Record<string, string> {
  const existing = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const tokens: Record<string, string> = {};
  for (const u of SEED_USERS)
    tokens[u.name] = existing[u.name] ?? `sandbox-${u.name}-${randomBytes(16).toString('hex')}`;
  return tokens;
}

// The kubeconfig cluster extension that tells the console where catalogd serves content
// (lib/k8s/cluster-config.ts reads it): the console reads a ClusterCatalog's status.urls.base only
// there, and the sandbox's content server has a port of its own.
const CATALOGD_EXTENSION = 'olm-console.dev/catalogd';
/**
 * The kubeconfig cluster extension naming the sandbox's image registry (`{url: https://host:port}`):
 * `npm start` reads it to trust and allow that registry, and a restart listens there again.
 */
export const IMAGE_REGISTRY_EXTENSION = 'olm-console.dev/image-registry';

function kubeconfigYaml(
  server: string,
  caPem: string,
  user: string,
  token: string,
  catalogd: string,
  registry: string,
): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: sandbox',
    '  cluster:',
    `    server: ${server}`,
    `    certificate-authority-data: ${Buffer.from(caPem).toString('base64')}`,
    '    extensions:',
    `    - name: ${CATALOGD_EXTENSION}`,
    '      extension:',
    `        url: ${catalogd}`,
    `    - name: ${IMAGE_REGISTRY_EXTENSION}`,
    '      extension:',
    `        url: ${registry}`,
    'users:',
    `- name: ${user}`,
    '  user:',
    `    token: ${token}`,
    'contexts:',
    `- name: sandbox${user === 'admin' ? '' : `-${user}`}`,
    '  context:',
    '    cluster: sandbox',
    `    user: ${user}`,
    '    namespace: default',
    `current-context: sandbox${user === 'admin' ? '' : `-${user}`}`,
    '',
  ].join('\n');
}

/**
 * The content server's port in the kubeconfig a previous start wrote, on this host: a restarted
 * sandbox listens there again when it can, so a console that read the kubeconfig keeps reading
 * content (it reads its cluster settings once).
 */
function previousContentPort(kubeconfigPath: string, host: string, extension = CATALOGD_EXTENSION): number {
  try {
    const doc = yaml.load(readFileSync(kubeconfigPath, 'utf8')) as {
      clusters?: { cluster?: { extensions?: { name?: unknown; extension?: { url?: unknown } }[] } }[];
    };
    const url = doc?.clusters?.[0]?.cluster?.extensions?.find((e) => e?.name === extension)?.extension?.url;
    if (typeof url !== 'string') return 0;
    const u = new URL(url);
    return u.hostname === host ? Number(u.port) || 0 : 0;
  } catch {
    return 0;
  }
}

/** Creates what is missing, leaves what exists: starting again on a data file changes nothing. */
function ensure(api: ApiServer, objects: KObject[]): void {
  for (const o of objects) {
    const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
    const r = api.resources.all().find((x) => x.group === group && x.versions.includes(version!) && x.kind === o.kind);
    if (!r) throw new Error(`bootstrap: no resource for ${o.apiVersion} ${o.kind}`);
    try {
      api.createObject(r, structuredClone(o));
    } catch (err) {
      if (!(err instanceof ApiStatusError && err.code === 409) && !((err as { code?: number }).code === 409)) throw err;
    }
  }
}

/**
 * The OLM CRDs as this version of the sandbox defines them: created, or replaced when a data file
 * kept an older definition (one without the schemas, say), as an OLM upgrade replaces its CRDs.
 */
function ensureOlmCrds(api: ApiServer): void {
  const crds = api.resources.all().find((r) => r.resource === 'customresourcedefinitions')!;
  for (const crd of [...olmCrds(), ...olmV1Crds()]) {
    const existing = api.storeGet(crds, undefined, crd.metadata.name ?? '');
    if (!existing) ensure(api, [crd]);
    else if (JSON.stringify(existing.spec) !== JSON.stringify(crd.spec))
      api.updateObject(crds, { ...existing, spec: crd.spec });
  }
}

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const flavor = opts.flavor ?? 'upstream';
  const kubeconfigPath = resolve(opts.kubeconfigPath ?? join('.sandbox', 'kubeconfig'));
  const dir = dirname(kubeconfigPath);
  mkdirSync(dir, { recursive: true });
  const tokensFile = join(dir, 'tokens.json');
  const tokens = loadTokens(tokensFile);
  const users = new Map<string, UserInfo>();
  for (const u of SEED_USERS) users.set(tokens[u.name]!, { name: u.name, groups: u.groups });

  const store = await Store.open({
    dataFile: opts.dataFile ? resolve(opts.dataFile) : undefined,
    historyLimit: opts.historyLimit,
  });
  const api = new ApiServer({ store, tokens: users });
  const ns = flavorNamespaces(flavor);
  ensureOlmCrds(api);
  ensure(
    api,
    flavor === 'openshift' ? [CLUSTER_VERSION_CRD, PROXY_CRD, OPERATOR_HUB_CRD, ...OPENSHIFT_CONFIG_CRDS] : [],
  );
  api.syncCrds();
  if (flavor === 'openshift') {
    ensureClusterVersion(api);
    ensureClusterProxy(api);
    ensureOperatorHub(api);
    ensureOpenShiftConfig(api);
  }
  ensure(
    api,
    ns.all.map((name) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } })),
  );
  // kube-controller-manager's aggregation controller, before the roles it fills are made.
  startClusterRoleAggregation(api);
  ensure(api, bootstrapClusterRoles());
  ensure(api, bootstrapBindings());
  // As upstream OLM installs itself: a global OperatorGroup for AllNamespaces operators, OLM's
  // own group, and the OLMConfig singleton.
  ensure(api, [
    {
      apiVersion: 'operators.coreos.com/v1',
      kind: 'OperatorGroup',
      metadata: { name: 'global-operators', namespace: ns.operators },
      spec: {},
    },
    {
      apiVersion: 'operators.coreos.com/v1',
      kind: 'OperatorGroup',
      metadata: { name: 'olm-operators', namespace: ns.olm },
      spec: { targetNamespaces: [ns.olm] },
    },
    { apiVersion: 'operators.coreos.com/v1', kind: 'OLMConfig', metadata: { name: 'cluster' }, spec: {} },
    // The two PriorityClasses kube-apiserver creates at start (its scheduling post-start hook).
    {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'system-node-critical' },
      value: 2000001000,
      description: 'Used for system critical pods that must not be moved from their current node.',
      preemptionPolicy: 'PreemptLowerPriority',
    },
    {
      apiVersion: 'scheduling.k8s.io/v1',
      kind: 'PriorityClass',
      metadata: { name: 'system-cluster-critical' },
      value: 2000000000,
      description:
        'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
      preemptionPolicy: 'PreemptLowerPriority',
    },
    // One node, so consoles can tell which operators' platforms the cluster can run.
    {
      apiVersion: 'v1',
      kind: 'Node',
      metadata: {
        name: 'sandbox-node-1',
        labels: {
          'kubernetes.io/arch': 'amd64',
          'kubernetes.io/os': 'linux',
          'kubernetes.io/hostname': 'sandbox-node-1',
        },
      },
      spec: {},
      status: {
        nodeInfo: { architecture: 'amd64', operatingSystem: 'linux' },
        conditions: [
          { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'the sandbox node is always ready' },
        ],
      },
    },
  ]);
  api.start();
  const workloads = startWorkloads(api);
  const tls = ensureServingCert(dir);
  const demo = opts.demo ?? !opts.catalogs?.length;
  const imageRegistry = await startSandboxRegistry({
    dir,
    tls,
    host: opts.host ?? '127.0.0.1',
    port: previousContentPort(kubeconfigPath, opts.host ?? '127.0.0.1', IMAGE_REGISTRY_EXTENSION),
    catalogs: opts.catalogs ?? [],
    demo,
    bundleImages: opts.bundleImages ?? false,
    imageCatalogs: opts.imageCatalogs,
  });
  seedPullSecret(api, ns.catalog, imageRegistry.registry.host, imageRegistry.registry.auth.credentials);
  const olm = await startOlm(api, {
    catalogNamespace: ns.catalog,
    catalogDirs: imageRegistry.catalogDirs,
    demo,
    demoDir: imageRegistry.demoDir,
    deploymentDelayMs: opts.deploymentDelayMs,
    catalogAddress: opts.catalogAddress,
    catalogImages: opts.catalogImages,
    marketplace: flavor === 'openshift',
  });
  const faults = new Faults(api, olm);
  api.hooks.sandboxPath = async (req, res, path) => {
    if (path === '/sandbox/faults') return faults.handle(req, res);
    res.writeHead(404, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'NotFound',
        code: 404,
        message: `no sandbox endpoint ${path}`,
      }),
    );
  };

  const seeds = v1Seeds(imageRegistry.catalogDirs, demo, ns.catalog, imageRegistry.demoDir);
  const olmV1 = await startOlmV1(api, {
    host: opts.host ?? '127.0.0.1',
    contentPort: previousContentPort(kubeconfigPath, opts.host ?? '127.0.0.1'),
    tls,
    deploymentDelayMs: opts.deploymentDelayMs ?? 1500,
    catalogImages: new Map([...Object.entries(opts.catalogImages ?? {}), ...seeds.map((s) => [s.ref, s.dir] as const)]),
    seeds,
  });
  const server: Server = createServer({ key: tls.key, cert: tls.cert }, api.handle);
  server.keepAliveTimeout = 65_000;
  server.on('upgrade', api.handleUpgrade);
  const closeServer = closingCuts(server);
  let inFlight = 0;
  let lastChange = Date.now();
  server.on('request', (req, res) => {
    if (/[?&](watch|follow)=(true|1)/.test(req.url ?? '')) return;
    inFlight++;
    lastChange = Date.now();
    res.once('close', () => {
      inFlight--;
      lastChange = Date.now();
    });
  });
  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => res());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `https://${opts.host ?? '127.0.0.1'}:${port}`;

  writeFileSync(tokensFile, JSON.stringify(tokens, null, 2) + '\n', { mode: 0o600 });
  const kubeconfigs: Record<string, string> = {};
  for (const u of SEED_USERS) {
    const file = u.name === 'admin' ? kubeconfigPath : join(dir, `kubeconfig-${u.name}`);
    writeFileSync(
      file,
      kubeconfigYaml(url, tls.cert, u.name, tokens[u.name]!, olmV1.contentUrl, imageRegistry.registry.origin),
      { mode: 0o600 },
    );
    kubeconfigs[u.name] = file;
  }

  return {
    url,
    caPem: tls.cert,
    port,
    kubeconfigPath,
    tokens,
    kubeconfigs,
    store,
    api,
    olm,
    olmV1,
    workloads,
    imageRegistry,
    faults,
    flavor,
    whenQuiet: async (quietMs, maxMs) => {
      const deadline = Date.now() + maxMs;
      while (Date.now() < deadline && (inFlight > 0 || Date.now() - lastChange < quietMs))
        await new Promise((r) => setTimeout(r, 25));
    },
    stop: async () => {
      await olmV1.stop();
      await olm.stop();
      await imageRegistry.stop();
      workloads.stop();
      api.stop();
      await closeServer();
      store.close();
    },
  };
}
