// The fleet's clusters an Open Cluster Management hub adds: when the home cluster serves
// ManagedClusters (as its discovery says, learnt once for everyone: hubServed), the person's own
// list of them (read as the person, never as the console) joins the clusters the console's
// settings name. For each ManagedCluster:
// - the hub itself (`local-cluster`, or the one whose address is the home cluster's) is the home
//   row, not a second one;
// - one the settings name too (same name, or same address) keeps the settings' address and
//   credentials: the console's operator chose those, while a ManagedCluster's address and CA are
//   data anyone with write on ManagedClusters controls. The hub's view is shown on that row;
// - any other becomes a member reached at `spec.managedClusterClientConfigs[0]`, with its CA, as
//   the person, only where person.ts lets a token travel (OIDC, or OLM_CONSOLE_FLEET_SHARED_TOKENS);
//   in kubeconfig mode it is a row only (the console reaches clusters there through contexts);
// - one without a client config, or with an address that is not https, is a row saying why it is
//   not asked (docs/security.md#clusters-an-ocm-hub-lists).
// A person who may not list ManagedClusters sees the configured clusters and the reason. The pages
// of one cluster (`/clusters/<name>/…`) accept a name from here only as this person's hub lists it
// (context-cluster.ts); one the hub does not report Available, or gives no usable address, is a
// page saying why (hubMemberBlocked).
import type { FleetHub, ManagedClusterView } from '../../api/fleet';
import { isKubeError } from '../../k8s/errors';
import type { ResourceType } from '../../olm/resources/common';
import { errorBody } from '../api-error';
import { CLUSTER_NAME_PATTERN } from './cluster-name';
import type { FleetMember } from './members';
import type { FleetPerson } from './person';

export const MANAGED_CLUSTER_TYPE: ResourceType = {
  group: 'cluster.open-cluster-management.io',
  version: 'v1',
  plural: 'managedclusters',
  namespaced: false,
  kind: 'ManagedCluster',
};
export const CLUSTER_SET_LABEL = 'cluster.open-cluster-management.io/clusterset';
/** The name OCM's installers give the hub's own ManagedCluster. */
export const LOCAL_CLUSTER = 'local-cluster';
const HTTPS_ONLY = 'the console sends your token only over TLS';
const SHOWN_CONDITIONS = ['HubAcceptedManagedCluster', 'ManagedClusterJoined', 'ManagedClusterConditionAvailable'];

export interface ManagedCluster {
  metadata: { name?: string; labels?: Record<string, string> };
  spec?: { managedClusterClientConfigs?: { url?: string; caBundle?: string }[] };
  status?: {
    conditions?: { type: string; status: string; reason?: string; message?: string }[];
    clusterClaims?: { name?: string; value?: string }[];
  };
}

/** The address a hub gives, if the console may send a person's token there; else why not. */
export function clientConfigOf(mc: ManagedCluster): { url?: string; caPem?: string; unreachable?: string } {
  const config = mc.spec?.managedClusterClientConfigs?.[0];
  if (!config?.url)
    return { unreachable: 'the hub lists it without an address (spec.managedClusterClientConfigs is empty)' };
  let url: URL;
  try {
    url = new URL(config.url);
  } catch {
    return { url: config.url, unreachable: `the hub gives the address "${config.url}", which is not a URL` };
  }
  if (url.protocol !== 'https:')
    return {
      url: config.url,
      unreachable: `the hub gives the address ${config.url}, which is not https: ${HTTPS_ONLY}`,
    };
  if (!config.caBundle) return { url: config.url };
  const caPem = Buffer.from(config.caBundle, 'base64').toString('utf8');
  if (!caPem.includes('-----BEGIN CERTIFICATE-----'))
    return { url: config.url, unreachable: 'the hub gives a caBundle that is not a PEM certificate' };
  return { url: config.url, caPem };
}

export function managedClusterView(mc: ManagedCluster, source: ManagedClusterView['source']): ManagedClusterView {
  const config = clientConfigOf(mc);
  return {
    name: mc.metadata.name ?? '',
    source,
    ...(config.url ? { url: config.url } : {}),
    ...(mc.metadata.labels?.[CLUSTER_SET_LABEL] ? { clusterSet: mc.metadata.labels[CLUSTER_SET_LABEL] } : {}),
    claims: (mc.status?.clusterClaims ?? []).map((c) => ({ name: c.name ?? '', value: c.value ?? '' })),
    conditions: (mc.status?.conditions ?? [])
      .filter((c) => SHOWN_CONDITIONS.includes(c.type))
      .map(({ type, status, reason, message }) => ({ type, status, reason, message })),
    ...(source === 'hub' && config.unreachable ? { unreachable: config.unreachable } : {}),
  };
}

/**
 * Why the console does not ask a cluster the hub added for a page of its own: no address it may
 * use, or the hub does not report it Available (its agent is not heard from: the page would wait
 * on a cluster that may be gone). Undefined for any other member, and for an Available one.
 */
export function hubMemberBlocked(m: FleetMember): string | undefined {
  if (m.managed?.source !== 'hub') return undefined;
  if (m.unreachable) return m.unreachable;
  const available = m.managed.conditions.find((c) => c.type === 'ManagedClusterConditionAvailable');
  if (available?.status === 'True') return undefined;
  if (!available) return 'the hub has no ManagedClusterConditionAvailable for it yet: it has not been heard from';
  const why = [available.reason, available.message].filter(Boolean).join(': ');
  const said = `${available.status}${why ? `, ${why}` : ''}`;
  return `the hub reports it not Available (ManagedClusterConditionAvailable is ${said})`;
}

const sameServer = (a: string, b: string | undefined): boolean => {
  if (!b) return false;
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
};

/**
 * The configured members with the hub's view on theirs, and a member for every other cluster the
 * hub lists. Pure: `clusters` is what the person read.
 */
export function mergeHubClusters(configured: readonly FleetMember[], clusters: ManagedCluster[]): FleetMember[] {
  const out = configured.map((m) => ({ ...m }));
  const home = out.find((m) => m.home);
  const added: FleetMember[] = [];
  for (const mc of [...clusters].sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))) {
    const name = mc.metadata.name ?? '';
    const url = mc.spec?.managedClusterClientConfigs?.[0]?.url;
    const mine =
      (name === LOCAL_CLUSTER || sameServer(home?.access.server ?? '', url) ? home : undefined) ??
      out.find((m) => m.name === name) ??
      out.find((m) => sameServer(m.access.server, url));
    if (mine) {
      mine.managed ??= managedClusterView(mc, 'settings');
      continue;
    }
    if (!CLUSTER_NAME_PATTERN.test(name)) continue;
    const view = managedClusterView(mc, 'hub');
    const config = clientConfigOf(mc);
    const kubeconfigMode = home?.access.mode === 'kubeconfig';
    const unreachable =
      config.unreachable ??
      (kubeconfigMode
        ? 'the console reads a kubeconfig and reaches clusters only through its contexts: add a context for it'
        : undefined);
    const server = config.url ?? '';
    added.push({
      name,
      home: false,
      access: {
        mode: 'token',
        server,
        cluster: {
          name,
          server,
          skipTLSVerify: false,
          ...(config.caPem ? { caData: Buffer.from(config.caPem).toString('base64') } : {}),
        },
        source: `ManagedCluster ${name} on the hub`,
      },
      managed: unreachable ? { ...view, unreachable } : view,
      ...(unreachable ? { unreachable } : {}),
    });
  }
  return [...out, ...added];
}

// The person's list, kept a few seconds (a page and its refresh read it once), per person.
const CACHE_MS = 10_000;
const shared = globalThis as { [key: symbol]: Map<string, { at: number; answer: Promise<HubRead> }> | undefined };
const KEY = Symbol.for('olm-console.fleet.hub');

/**
 * How long whether the home cluster serves ManagedClusters is taken as learnt, for everyone: it is
 * the cluster's fact, not a person's, and on a cluster that is no hub every person's pages would
 * otherwise ask again. Bounded, so a hub installed on the home cluster shows within minutes.
 */
export const NO_HUB_MS = 5 * 60_000;
// Whether each home cluster serves ManagedClusters, by its address, until when that holds, and
// the answer once it came. On globalThis: the HTTP server and each of Next's route bundles load
// their own copy of this module, and all of them render pages. A few home addresses; bounded.
interface Served {
  until: number;
  answer: Promise<boolean>;
  value?: boolean;
}
const served = ((globalThis as { [key: symbol]: Map<string, Served> | undefined })[
  Symbol.for('olm-console.fleet.hub-served')
] ??= new Map<string, Served>());

function remember(server: string, entry: Served): void {
  served.set(server, entry);
  if (served.size > 100) served.delete(served.keys().next().value!);
}

/**
 * Whether the home cluster serves ManagedClusters, from its discovery document. Not from the list:
 * kube-apiserver authorizes a request before it looks for its API, so a person who may not list
 * ManagedClusters is refused (403) on a cluster with no such API as on a hub; a 403 says nothing
 * about the cluster. Discovery is read as the person (every signed-in person may: the
 * system:discovery role; a stranger may not, and the console's own identity is not used for it),
 * and its answer is the same for all, so it is kept for everyone. A failed read is not kept.
 */
function hubServed(person: FleetPerson, home: FleetMember, at: number): Promise<boolean> {
  const server = home.access.server;
  const known = served.get(server);
  if (known && at < known.until) return known.answer;
  const entry: Served = { until: at + NO_HUB_MS, answer: person.client(home).serves(MANAGED_CLUSTER_TYPE) };
  remember(server, entry);
  entry.answer.then(
    (value) => (entry.value = value),
    () => served.get(server) === entry && served.delete(server),
  );
  return entry.answer;
}

interface HubRead {
  clusters: ManagedCluster[];
  hub: FleetHub;
}

async function readHub(person: FleetPerson, home: FleetMember, at: number): Promise<HubRead> {
  try {
    if (!(await hubServed(person, home, at))) return { clusters: [], hub: { hub: false } };
  } catch (err) {
    const { message } = errorBody(err).error;
    return {
      clusters: [],
      hub: {
        hub: true,
        note: `whether the home cluster is an Open Cluster Management hub could not be learnt: ${message}`,
      },
    };
  }
  try {
    const list = await person.client(home).list<ManagedCluster>(MANAGED_CLUSTER_TYPE);
    return { clusters: list.items, hub: { hub: true } };
  } catch (err) {
    // The API went away since discovery said it was served: no hub, for everyone, for a while.
    if (isKubeError(err, 404)) {
      remember(home.access.server, { until: at + NO_HUB_MS, answer: Promise.resolve(false), value: false });
      return { clusters: [], hub: { hub: false } };
    }
    // The API is served, so a refusal is this person's own.
    const { code, message } = errorBody(err).error;
    const note =
      code === 403
        ? 'the home cluster is an Open Cluster Management hub, but you may not list its ManagedClusters: ' +
          'only the clusters the console is configured with are shown'
        : `the hub's ManagedClusters could not be read: ${message}`;
    return { clusters: [], hub: { hub: true, note } };
  }
}

/** The fleet as this person sees it: the configured clusters, and those their hub lists. */
export async function withHubMembers(
  configured: FleetMember[],
  person: FleetPerson,
  now = Date.now(),
): Promise<{ members: FleetMember[]; hub: FleetHub }> {
  const home = configured.find((m) => m.home);
  if (!home) return { members: configured, hub: { hub: false } };
  // Someone learnt a few minutes ago that no ManagedCluster API is served here: nobody asks again.
  const known = served.get(home.access.server);
  if (known?.value === false && now < known.until) return { members: configured, hub: { hub: false } };
  const cache = (shared[KEY] ??= new Map());
  let hit = cache.get(person.key);
  if (!hit || now - hit.at > CACHE_MS) {
    hit = { at: now, answer: readHub(person, home, now) };
    cache.set(person.key, hit);
    if (cache.size > 2000) cache.delete(cache.keys().next().value!);
  }
  const { clusters, hub } = await hit.answer;
  return { members: mergeHubClusters(configured, clusters), hub };
}
