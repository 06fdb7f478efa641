// The clusters the console serves, each named, read once from its settings. The home cluster is
// the one every other page shows (context.ts's clusterAccess, unchanged); the fleet pages read all.
// Three sources, in this order (and, read per person, the clusters an OCM hub lists: hub-members.ts):
// - OLM_CONSOLE_CLUSTERS_FILE, deployed: the home cluster plus a file of `name, server, CA`. It
//   holds no credentials: each person signs in and their own token goes to every cluster, so the
//   file is refused unless people sign in (per-user tokens or OIDC).
// - OLM_CONSOLE_CLUSTERS, from `npm start -- --cluster NAME=KUBECONFIG[:CONTEXT]` (a JSON list).
// - Otherwise every context of the console's kubeconfig, the current (or --context) one home.
// In kubeconfig mode each cluster is reached as its context's user; with per-user tokens every
// context contributes only its server and CA. The console's own identity is never used for a
// person on any of them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { KubeConfig } from '@kubernetes/client-node';
import yaml from 'js-yaml';
import { z } from 'zod';
import type { FleetClusterRef, ManagedClusterView } from '../../api/fleet';
import { resolveClusterAccess, type ClusterAccess } from '../../k8s/cluster-config';
import { clusterAccess } from '../context';
import { CLUSTER_NAME_PATTERN, CLUSTER_NAME_RULE, type ClusterFlag } from './cluster-name';

export interface FleetMember {
  name: string;
  /** The cluster every other page of the console shows. */
  home: boolean;
  access: ClusterAccess;
  /** What the Open Cluster Management hub says of it, when the home cluster is a hub that lists it (hub-members.ts). */
  managed?: ManagedClusterView;
  /** Why the console does not ask this cluster (a hub-listed cluster it cannot reach as the person). */
  unreachable?: string;
}

/**
 * The name the console's caches keep this member's answers under (KubeClient.cluster), undefined
 * for home. A configured member is its name. A member a hub lists is its name with the address and
 * CA the hub gives now: anyone who may write its ManagedCluster may point that name at another API
 * server, and nothing read at the old address may then be given under the name. A space cannot
 * be in a configured name (cluster-name.ts), so the two kinds never meet.
 */
export function clusterCacheKey(m: FleetMember): string | undefined {
  if (m.home) return undefined;
  if (m.managed?.source !== 'hub') return m.name;
  const ca = m.access.cluster?.caData ?? '';
  return `${m.name} at ${m.access.server} ca ${createHash('sha256').update(ca).digest('hex').slice(0, 16)}`;
}

// The hub members clients were made for, by cache key, so that what keeps a cluster's catalogs
// (catalog-indexes.ts) finds the member behind a client. On globalThis (one per process, whichever
// route bundle made the client); bounded, the oldest forgotten first (made again on its next request).
const HUB_KEYS = Symbol.for('olm-console.fleet.hub-member-keys');
const MAX_HUB_KEYS = 500;

/** The member's cache key (for its KubeClient), remembering a hub member under it. */
export function rememberCacheKey(m: FleetMember): string | undefined {
  const key = clusterCacheKey(m);
  if (key === undefined || m.managed?.source !== 'hub') return key;
  const kept = ((globalThis as { [HUB_KEYS]?: Map<string, FleetMember> })[HUB_KEYS] ??= new Map());
  kept.delete(key);
  kept.set(key, m);
  if (kept.size > MAX_HUB_KEYS) kept.delete(kept.keys().next().value!);
  return key;
}

/** The member a client's cache key names: a configured one by name, or a remembered hub member. */
export function memberOfCacheKey(key: string): FleetMember | undefined {
  return (
    fleetMembers().find((m) => !m.home && m.name === key) ??
    (globalThis as { [HUB_KEYS]?: Map<string, FleetMember> })[HUB_KEYS]?.get(key)
  );
}

/** A member as every fleet answer names it. */
export function fleetRef(m: FleetMember): FleetClusterRef {
  return { name: m.name, home: m.home, server: m.access.server, ...(m.managed ? { managed: m.managed } : {}) };
}

const clusterName = z.string().regex(CLUSTER_NAME_PATTERN, `must be ${CLUSTER_NAME_RULE}`);

/** The clusters file: names, addresses and CAs only (strict: a `token` or `user` field is refused). */
export const ClustersFile = z.strictObject({
  /** The name the console's own cluster is shown under (default `home`). */
  home: clusterName.optional(),
  clusters: z
    .array(
      z.strictObject({
        name: clusterName,
        server: z
          .string()
          .url('must be a URL such as https://api.prod.example.com:6443')
          .refine((s) => s.startsWith('https://'), "must be https: the person's token is sent there"),
        /** PEM of the CA that signed the API server's certificate; without it the system's CAs are trusted. */
        certificateAuthority: z
          .string()
          .max(64 * 1024)
          .refine((s) => s.includes('-----BEGIN CERTIFICATE-----'), 'must be a PEM certificate')
          .optional(),
      }),
    )
    .max(500),
});
export type ClustersFile = z.infer<typeof ClustersFile>;

/** Reads and checks a clusters file; the error names the file, the field and what it must be. */
export function readClustersFile(path: string, text = readFileSync(path, 'utf8')): ClustersFile {
  let doc: unknown;
  try {
    doc = yaml.load(text);
  } catch (err) {
    throw new Error(`the clusters file ${path} is not YAML or JSON: ${(err as Error).message}`);
  }
  const parsed = ClustersFile.safeParse(doc);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    const where = first.path.join('.') || '(the whole file)';
    const why =
      first.code === 'unrecognized_keys'
        ? `${first.message} (the file names clusters only: no tokens, users or other credentials)`
        : first.message;
    throw new Error(`the clusters file ${path}: ${where}: ${why}`);
  }
  const names = new Set<string>([parsed.data.home ?? 'home']);
  for (const c of parsed.data.clusters) {
    if (names.has(c.name)) throw new Error(`the clusters file ${path}: cluster ${c.name} is named twice`);
    names.add(c.name);
  }
  return parsed.data;
}

function fileMember(c: ClustersFile['clusters'][number]): FleetMember {
  const cluster = {
    name: c.name,
    server: c.server,
    skipTLSVerify: false,
    ...(c.certificateAuthority ? { caData: Buffer.from(c.certificateAuthority).toString('base64') } : {}),
  };
  return {
    name: c.name,
    home: false,
    access: { mode: 'token', server: c.server, cluster, source: `clusters file entry ${c.name}` },
  };
}

export function resolveFleet(env: Record<string, string | undefined> = process.env): FleetMember[] {
  const home = clusterAccess(env);
  const perUserTokens = home.mode === 'token';
  if (env.OLM_CONSOLE_CLUSTERS_FILE) {
    if (!perUserTokens)
      throw new Error(
        'OLM_CONSOLE_CLUSTERS_FILE lists clusters without credentials, so each person must sign in ' +
          "(per-user tokens or --oidc-issuer); with a kubeconfig's user, list the clusters as its contexts instead",
      );
    const file = readClustersFile(env.OLM_CONSOLE_CLUSTERS_FILE);
    return [{ name: file.home ?? 'home', home: true, access: home }, ...file.clusters.map(fileMember)];
  }
  if (env.OLM_CONSOLE_CLUSTERS) {
    const flags = JSON.parse(env.OLM_CONSOLE_CLUSTERS) as ClusterFlag[];
    return flags.map((f, i) => ({
      name: f.name,
      home: i === 0,
      access:
        i === 0 ? home : resolveClusterAccess({ kubeconfig: f.kubeconfig, context: f.context, perUserTokens }, env),
    }));
  }
  if (env.OLM_CONSOLE_IN_CLUSTER === 'true') return [{ name: 'home', home: true, access: home }];
  const file = env.OLM_CONSOLE_KUBECONFIG || env.KUBECONFIG?.split(':')[0];
  const kc = new KubeConfig();
  if (file) kc.loadFromFile(file);
  else kc.loadFromDefault();
  const homeContext = env.OLM_CONSOLE_CONTEXT || kc.getCurrentContext();
  const members: FleetMember[] = [{ name: homeContext || 'home', home: true, access: home }];
  for (const ctx of kc.getContexts()) {
    if (ctx.name === homeContext) continue;
    members.push({
      name: ctx.name,
      home: false,
      access: resolveClusterAccess({ kubeconfig: file, context: ctx.name, perUserTokens }, env),
    });
  }
  return members;
}

// Read once per process (the settings do not change while it runs), on globalThis: each route
// bundle Next.js builds would otherwise hold its own copy and its own connection pools.
const shared = globalThis as { [key: symbol]: FleetMember[] | undefined };
const KEY = Symbol.for('olm-console.fleet.members');

export function fleetMembers(): FleetMember[] {
  return (shared[KEY] ??= resolveFleet());
}
