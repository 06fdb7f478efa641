// Several sandbox clusters in one process, for the console's fleet pages (`npm start -- --clusters
// N`, `npm run sandbox -- --clusters N`). One process rather than N: each cluster is a store, an
// API server and OLM's controllers on a port of its own, and what they share (the Node runtime,
// the loaded modules, the demo catalog's parsed files) is most of a sandbox's memory and start
// time, so a fourth cluster costs a fraction of a second process (docs/sandbox.md).
//
// Every cluster accepts the same seed users' tokens (one tokens.json copied to each), as every
// cluster of a real fleet trusts one identity provider: one sign-in serves all of them. One
// kubeconfig names them all, a context per cluster (and one per seed user beside it), which is
// what the console's `--kubeconfig` with several contexts reads. Each cluster is seeded
// differently, through its own API server as OLM's clients would write, so the fleet pages have
// something to compare: operators at different versions, upgrades waiting for approval on two
// clusters, an OLM v1 ClusterExtension on another.
//
// The first cluster is also an Open Cluster Management hub (lib/sandbox/ocm/): it lists every
// cluster, itself as `local-cluster`, as a ManagedCluster with its address, CA and claims, and
// applies ManifestWorks on the cluster they name, as OCM's agents would.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import yaml from 'js-yaml';
import { SEED_USERS } from './auth/bootstrap-rbac';
import { LOCAL_CLUSTER } from './ocm/objects';
import { startOcmHub, type OcmHub } from './ocm/hub';
import type { ApiServer } from './server/api-server';
import { startSandbox, type Sandbox, type SandboxOptions } from './server/sandbox';
import type { KObject } from './store/types';

/** The first clusters' names say what a fleet usually is; the rest are numbered. */
const NAMES = ['prod-east', 'prod-west', 'staging'];

export function fleetClusterName(index: number): string {
  return NAMES[index] ?? `cluster-${index + 1}`;
}

export interface SandboxFleet {
  clusters: { name: string; sandbox: Sandbox }[];
  /** The kubeconfig naming every cluster, a context each, the admin's first (the home cluster). */
  kubeconfigPath: string;
  /** Seed user → that user's kubeconfig over every cluster. */
  kubeconfigs: Record<string, string>;
  tokens: Record<string, string>;
  /** Open Cluster Management on the first cluster, the hub. */
  ocm: OcmHub;
  stop(): Promise<void>;
}

export interface FleetOptions extends Omit<SandboxOptions, 'kubeconfigPath' | 'dataFile' | 'port'> {
  count: number;
  /** The combined kubeconfig; each cluster's own files go in `<its folder>/<cluster name>/`. */
  kubeconfigPath: string;
  /** The first cluster's port (later clusters reuse the ports a previous start wrote, else any). */
  port?: number;
  /** With a data file, each cluster keeps its objects in `<data>.<cluster name>` (the first in `<data>`). */
  dataFile?: string;
  /** Seed the clusters' differing operators (default true; a restart on a data file adds nothing new). */
  seed?: boolean;
}

/** The port a previous start of this cluster wrote in its kubeconfig, so a console that read it keeps working. */
function previousPort(kubeconfig: string): number {
  try {
    const doc = yaml.load(readFileSync(kubeconfig, 'utf8')) as { clusters?: { cluster?: { server?: unknown } }[] };
    const server = doc?.clusters?.[0]?.cluster?.server;
    return typeof server === 'string' ? Number(new URL(server).port) || 0 : 0;
  } catch {
    return 0;
  }
}

type KubeconfigDoc = {
  clusters: { name: string; cluster: Record<string, unknown> }[];
  users: { name: string; user: Record<string, unknown> }[];
  contexts: { name: string; context: Record<string, unknown> }[];
};

/** One kubeconfig over every cluster for a seed user: the cluster entries as each sandbox wrote them. */
function combinedKubeconfig(clusters: { name: string; sandbox: Sandbox }[], user: string, token: string): string {
  const doc: KubeconfigDoc = { clusters: [], users: [{ name: user, user: { token } }], contexts: [] };
  for (const { name, sandbox } of clusters) {
    const own = yaml.load(readFileSync(sandbox.kubeconfigPath, 'utf8')) as KubeconfigDoc;
    doc.clusters.push({ name, cluster: own.clusters[0]!.cluster });
    doc.contexts.push({ name, context: { cluster: name, user, namespace: 'default' } });
  }
  return yaml.dump({ apiVersion: 'v1', kind: 'Config', ...doc, 'current-context': clusters[0]!.name });
}

export async function startSandboxFleet(opts: FleetOptions): Promise<SandboxFleet> {
  if (!Number.isInteger(opts.count) || opts.count < 2)
    throw new Error(`a fleet has at least 2 clusters, got ${opts.count}`);
  const { count, kubeconfigPath: combined, port, dataFile, seed = true, ...common } = opts;
  const kubeconfigPath = resolve(combined);
  const dir = dirname(kubeconfigPath);
  const clusters: { name: string; sandbox: Sandbox }[] = [];
  let ocm: OcmHub | undefined;
  try {
    for (let i = 0; i < count; i++) {
      const name = fleetClusterName(i);
      const own = join(dir, name, 'kubeconfig');
      mkdirSync(dirname(own), { recursive: true });
      // The first cluster's tokens are every cluster's: one sign-in serves the fleet.
      if (i > 0)
        copyFileSync(join(dirname(clusters[0]!.sandbox.kubeconfigPath), 'tokens.json'), join(dir, name, 'tokens.json'));
      const sandbox = await startSandbox({
        ...common,
        port: i === 0 ? port : previousPort(own),
        kubeconfigPath: own,
        ...(dataFile ? { dataFile: i === 0 ? dataFile : `${dataFile}.${name}` } : {}),
      });
      clusters.push({ name, sandbox });
    }
    // Each cluster's OLM works on its own seed: all at once.
    if (seed) await Promise.all(clusters.map((c, i) => seedCluster(c.sandbox.api, i)));
    ocm = await startOcmHub(
      clusters[0]!.sandbox.api,
      clusters.map((c, i) => ({
        name: i === 0 ? LOCAL_CLUSTER : c.name,
        url: c.sandbox.url,
        caPem: c.sandbox.caPem,
        api: c.sandbox.api,
      })),
    );
    if (seed) {
      clusters.forEach((c, i) => seedClaims(c.sandbox.api, i));
      await ocm.settled();
    }
  } catch (err) {
    ocm?.stop();
    await Promise.all(clusters.map((c) => c.sandbox.stop()));
    throw err;
  }
  const tokens = clusters[0]!.sandbox.tokens;
  const kubeconfigs: Record<string, string> = {};
  for (const u of SEED_USERS) {
    const file = u.name === 'admin' ? kubeconfigPath : join(dir, `kubeconfig-${u.name}`);
    writeFileSync(file, combinedKubeconfig(clusters, u.name, tokens[u.name]!), { mode: 0o600 });
    kubeconfigs[u.name] = file;
  }
  return {
    clusters,
    kubeconfigPath,
    kubeconfigs,
    tokens,
    ocm: ocm!,
    stop: async () => {
      ocm!.stop();
      await Promise.all(clusters.map((c) => c.sandbox.stop()));
    },
  };
}

// ---- Seeding: written through each cluster's API server, as a person's kubectl would. ----

function resourceFor(api: ApiServer, apiVersion: string, kind: string) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const r = api.resources.all().find((x) => x.group === group && x.versions.includes(version!) && x.kind === kind);
  if (!r) throw new Error(`fleet seed: no resource for ${apiVersion} ${kind}`);
  return r;
}

function createIfMissing(api: ApiServer, o: KObject): void {
  try {
    api.createObject(resourceFor(api, o.apiVersion, o.kind), structuredClone(o));
  } catch (err) {
    // The store's own conflict and the API server's are both a 409: the object is there already.
    if ((err as { code?: number }).code !== 409) throw err;
  }
}

interface SeedSubscription {
  package: string;
  /** Default `operators` (global: OLM's own OperatorGroup there targets every namespace). */
  namespace?: string;
  channel: string;
  approval: 'Automatic' | 'Manual';
  startingCSV?: string;
}

const subscription = (s: SeedSubscription): KObject => ({
  apiVersion: 'operators.coreos.com/v1alpha1',
  kind: 'Subscription',
  metadata: { name: s.package, namespace: s.namespace ?? 'operators' },
  spec: {
    name: s.package,
    source: 'olm-console-demo',
    sourceNamespace: 'olm',
    channel: s.channel,
    installPlanApproval: s.approval,
    ...(s.startingCSV ? { startingCSV: s.startingCSV } : {}),
  },
});

/** Each cluster's operators: the same packages at different versions, two upgrades left waiting. */
const SEEDS: SeedSubscription[][] = [
  [
    { package: 'certwarden', channel: 'stable', approval: 'Manual', startingCSV: 'certwarden.v1.0.0' },
    { package: 'pgpilot', channel: 'stable', approval: 'Automatic' },
  ],
  [
    { package: 'certwarden', channel: 'stable', approval: 'Manual', startingCSV: 'certwarden.v1.0.0' },
    { package: 'pgpilot', channel: 'stable', approval: 'Manual', startingCSV: 'pgpilot.v1.2.0' },
    { package: 'cachely', namespace: 'team1', channel: 'alpha', approval: 'Manual', startingCSV: 'cachely.v0.9.0' },
  ],
  [{ package: 'certwarden', channel: 'stable', approval: 'Automatic' }],
];

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`fleet seed: ${what} did not happen within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * A Manual Subscription's first InstallPlan (the install of its starting CSV) approved, as its
 * admin would: OLM then installs it and makes the next plan, the upgrade, which waits.
 */
async function approveFirstPlan(api: ApiServer, pkg: string, ns: string): Promise<void> {
  const subs = resourceFor(api, 'operators.coreos.com/v1alpha1', 'Subscription');
  const plans = resourceFor(api, 'operators.coreos.com/v1alpha1', 'InstallPlan');
  const sub = api.storeGet(subs, ns, pkg) as KObject & { status?: { installedCSV?: string } };
  if (sub?.status?.installedCSV) return;
  const plan = await until(`the first InstallPlan of ${pkg}`, () =>
    api
      .storeList(plans, ns)
      .find(
        (p) =>
          (p as { status?: { phase?: string } }).status?.phase === 'RequiresApproval' &&
          (p.metadata.ownerReferences ?? []).some((o) => o.uid === sub?.metadata.uid),
      ),
  );
  api.updateObject(plans, { ...plan, spec: { ...(plan.spec as object), approved: true } });
  await until(`${pkg} installed`, () => {
    const s = api.storeGet(subs, ns, pkg) as (KObject & { status?: { installedCSV?: string } }) | undefined;
    return s?.status?.installedCSV || undefined;
  });
}

/** pgpilot 1.3.0 by OLM v1, installing as a ServiceAccount bound to cluster-admin. */
function clusterExtension(api: ApiServer): void {
  const ns = 'pgpilot-v1';
  createIfMissing(api, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
  createIfMissing(api, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'installer', namespace: ns } });
  createIfMissing(api, {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: `${ns}-installer` },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' },
    subjects: [{ kind: 'ServiceAccount', name: 'installer', namespace: ns }],
  } as KObject);
  createIfMissing(api, {
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterExtension',
    metadata: { name: 'pgpilot' },
    spec: {
      namespace: ns,
      serviceAccount: { name: 'installer' },
      source: { sourceType: 'Catalog', catalog: { packageName: 'pgpilot', version: '1.3.0', channels: ['stable'] } },
    },
  } as KObject);
}

/** Each cluster's region as a ClusterClaim on the cluster itself, which its agent reports to the hub. */
const REGIONS = ['us-east-1', 'us-west-2', 'eu-west-1'];

function seedClaims(api: ApiServer, index: number): void {
  createIfMissing(api, {
    apiVersion: 'cluster.open-cluster-management.io/v1alpha1',
    kind: 'ClusterClaim',
    metadata: { name: 'region.open-cluster-management.io' },
    spec: { value: REGIONS[index % REGIONS.length] },
  } as KObject);
}

async function seedCluster(api: ApiServer, index: number): Promise<void> {
  const seeds = SEEDS[index % SEEDS.length]!;
  // A namespace of its own needs an OperatorGroup targeting it (operators has OLM's global one).
  for (const ns of new Set(seeds.flatMap((s) => (s.namespace ? [s.namespace] : []))))
    createIfMissing(api, {
      apiVersion: 'operators.coreos.com/v1',
      kind: 'OperatorGroup',
      metadata: { name: ns, namespace: ns },
      spec: { targetNamespaces: [ns] },
    });
  for (const s of seeds) createIfMissing(api, subscription(s));
  for (const s of seeds)
    if (s.approval === 'Manual') await approveFirstPlan(api, s.package, s.namespace ?? 'operators');
  if (index % SEEDS.length === 2) clusterExtension(api);
}
