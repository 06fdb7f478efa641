// What `npm start`'s flags mean, decided in one place so that no combination weakens
// authentication silently: every combination either does what its words say or is refused with
// the reason. The result is the cluster to use and the environment the console server gets.
import { parseClusterFlag, type ClusterFlag } from '../lib/server/fleet/cluster-name';
import yaml from 'js-yaml';
import { PULL_SECRET_NAME } from '../lib/sandbox/image-registry/pull-secret';

export interface StartFlags {
  port: string;
  host: string;
  kubeconfig?: string;
  context?: string;
  inCluster: boolean;
  perUserTokens: boolean;
  sandbox: boolean;
  catalog: string[];
  /** `--clusters N`: the sandbox with N clusters (the fleet pages' demo). */
  clusters?: string;
  /** `--cluster NAME=KUBECONFIG[:CONTEXT]`, repeated: the clusters the console serves, the first its home. */
  cluster?: string[];
  /** With the sandbox: whether its catalogs give bundles by image (`--bundle-images on|off`, lib/sandbox/main.ts). */
  bundleImages?: string;
  publicUrl?: string;
  trustProxy: boolean;
  /**
   * Run the approver of upgrade targets as the console's own identity (OLM_CONSOLE_UPGRADE_APPROVER
   * =console). Optional so that callers without the flag (the image's server) leave it off.
   */
  upgradeApprover?: boolean;
  /** Sign-in with an identity provider (implies per-user sessions); the secret and CA by file. */
  oidcIssuer?: string;
  oidcClientId?: string;
  oidcClientSecretFile?: string;
  oidcCaFile?: string;
}

export type StartPlan =
  | { ok: false; message: string }
  | {
      ok: true;
      /** Start the embedded sandbox and point the console at its kubeconfig. */
      sandbox: boolean;
      catalogs: string[];
      /** How many clusters the sandbox serves (1 without --clusters). */
      sandboxClusters: number;
      /** More flags for the sandbox (lib/sandbox/main.ts). */
      sandboxArgs: string[];
      /** Environment for the console server (the sandbox's kubeconfig is added once it listens). */
      env: Record<string, string>;
      /** One line for the start banner. */
      describe: string;
    };

const refuse = (message: string): StartPlan => ({ ok: false, message });

/** The plan for these flags, given $KUBECONFIG and $OLM_CONSOLE_UPGRADE_APPROVER. */
export function planStart(f: StartFlags, envKubeconfig?: string, envApprover?: string): StartPlan {
  const port = Number(f.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    return refuse(`--port must be a number between 1 and 65535, got "${f.port}"`);
  if (f.inCluster && f.sandbox) return refuse('--in-cluster and --sandbox name two different clusters: choose one');
  if (f.inCluster && f.kubeconfig)
    return refuse(
      "--in-cluster reads the cluster from the pod's service account; --kubeconfig names another: choose one",
    );
  if (f.sandbox && f.kubeconfig)
    return refuse('--sandbox starts its own cluster; --kubeconfig names another: choose one');
  if (f.context && (f.inCluster || f.sandbox))
    return refuse(
      '--context chooses a context of --kubeconfig (or $KUBECONFIG); it means nothing with --in-cluster or --sandbox',
    );
  const fleet = fleetFlags(f);
  if (!fleet.ok) return fleet;
  if (f.publicUrl !== undefined) {
    let u: URL;
    try {
      u = new URL(f.publicUrl);
    } catch {
      return refuse(`--public-url must be a URL such as https://console.example.com, got "${f.publicUrl}"`);
    }
    if (u.protocol !== 'https:' && u.protocol !== 'http:')
      return refuse(`--public-url must be http(s), got "${f.publicUrl}"`);
    if (u.pathname !== '/' || u.search || u.hash || u.username)
      return refuse(
        `--public-url is an origin (scheme, host, port) without path, query or credentials, got "${f.publicUrl}"`,
      );
  }

  // The approver approves InstallPlans with the console's own identity: off unless asked for by
  // name, and never two answers to who it acts as.
  const approver = envApprover?.trim();
  if (f.upgradeApprover && approver && approver !== 'console') {
    const named = `OLM_CONSOLE_UPGRADE_APPROVER names "${approver}"`;
    return refuse(`--upgrade-approver approves as the console's own identity; ${named}: choose one`);
  }

  if (f.bundleImages !== undefined && f.bundleImages !== 'on' && f.bundleImages !== 'off')
    return refuse(`--bundle-images must be on or off, got "${f.bundleImages}"`);
  const oidc = oidcEnv(f);
  if (!oidc.ok) return oidc;
  const env: Record<string, string> = { OLM_CONSOLE_PORT: String(port), ...oidc.env };
  const perUserTokens = f.perUserTokens || !!f.oidcIssuer;
  if (f.publicUrl) env.OLM_CONSOLE_PUBLIC_URL = new URL(f.publicUrl).origin;
  if (f.trustProxy) env.OLM_CONSOLE_TRUST_PROXY = 'true';
  if (f.upgradeApprover) env.OLM_CONSOLE_UPGRADE_APPROVER = 'console';

  if (
    f.bundleImages !== undefined &&
    (f.inCluster || f.kubeconfig || fleet.clusters.length || (!f.sandbox && envKubeconfig))
  )
    return refuse(
      "--bundle-images chooses how the sandbox's catalogs give bundles; a real cluster's catalogs are its own",
    );
  if (f.inCluster) {
    if (f.catalog.length)
      return refuse('--catalog serves a folder in the sandbox; a real cluster reads its CatalogSources');
    return {
      ok: true,
      sandbox: false,
      catalogs: [],
      sandboxClusters: 1,
      sandboxArgs: [],
      env: { ...env, OLM_CONSOLE_IN_CLUSTER: 'true' },
      describe: 'Cluster: in-cluster; each person logs in with their own token',
    };
  }
  if (fleet.clusters.length) {
    if (f.catalog.length) return refuse('--catalog serves a folder in the sandbox; --cluster clusters read their own');
    const home = fleet.clusters[0]!;
    const e: Record<string, string> = {
      ...env,
      OLM_CONSOLE_CLUSTERS: JSON.stringify(fleet.clusters),
      OLM_CONSOLE_KUBECONFIG: home.kubeconfig,
      ...(home.context ? { OLM_CONSOLE_CONTEXT: home.context } : {}),
    };
    if (perUserTokens) e.OLM_CONSOLE_AUTH = 'token';
    const who = f.oidcIssuer
      ? `each person signs in at ${f.oidcIssuer}, the one sign-in sent to every cluster`
      : perUserTokens
        ? `each person logs in with their own token, sent to ${home.name} only ` +
          '(to all with OLM_CONSOLE_FLEET_SHARED_TOKENS=true)'
        : "acting as each kubeconfig's user";
    const names = fleet.clusters.map((c) => c.name).join(', ');
    return {
      ok: true,
      sandbox: false,
      catalogs: [],
      sandboxClusters: 1,
      sandboxArgs: [],
      env: e,
      describe: `Clusters: ${names} (home ${home.name}); ${who}`,
    };
  }
  const kubeconfig = f.kubeconfig ?? (f.sandbox ? undefined : envKubeconfig || undefined);
  if (kubeconfig) {
    if (f.catalog.length)
      return refuse(
        "--catalog serves a folder in the sandbox; with --kubeconfig (or $KUBECONFIG) the cluster's own CatalogSources are read (add --sandbox and drop the kubeconfig to use the sandbox)",
      );
    const e: Record<string, string> = { ...env, OLM_CONSOLE_KUBECONFIG: kubeconfig };
    if (f.context) e.OLM_CONSOLE_CONTEXT = f.context;
    if (perUserTokens) e.OLM_CONSOLE_AUTH = 'token';
    const who = f.oidcIssuer
      ? `each person signs in at ${f.oidcIssuer}`
      : perUserTokens
        ? 'each person logs in with their own token'
        : "acting as the kubeconfig's user";
    return {
      ok: true,
      sandbox: false,
      catalogs: [],
      sandboxClusters: 1,
      sandboxArgs: [],
      env: e,
      describe: `Cluster: ${kubeconfig}${f.context ? ` (context ${f.context})` : ''}; ${who}`,
    };
  }
  if (f.context) return refuse('--context needs a kubeconfig (--kubeconfig or $KUBECONFIG)');
  const e: Record<string, string> = { ...env };
  if (f.oidcIssuer)
    return refuse(
      '--oidc-issuer signs people in to a real cluster whose API server trusts that issuer; the sandbox does not: give --kubeconfig',
    );
  if (f.perUserTokens) e.OLM_CONSOLE_AUTH = 'token';
  // The sandbox's clusters give each seed user one token on every cluster.
  if (fleet.sandboxClusters > 1) e.OLM_CONSOLE_FLEET_SHARED_TOKENS = 'true';
  const who = f.perUserTokens
    ? "each person logs in with a seed user's token (.sandbox/tokens.json)"
    : "acting as the sandbox's admin";
  const n = fleet.sandboxClusters;
  return {
    ok: true,
    sandbox: true,
    catalogs: f.catalog,
    sandboxClusters: n,
    sandboxArgs: f.bundleImages ? ['--bundle-images', f.bundleImages] : [],
    env: e,
    describe: n > 1 ? `Clusters: ${n} sandbox clusters; ${who} on each` : `Cluster: the sandbox; ${who}`,
  };
}

/** `--clusters N` and `--cluster NAME=…`: what they mean alone, and what they cannot go with. */
function fleetFlags(
  f: StartFlags,
): { ok: true; clusters: ClusterFlag[]; sandboxClusters: number } | { ok: false; message: string } {
  const no = (message: string) => ({ ok: false as const, message });
  const given = f.cluster ?? [];
  if (f.clusters !== undefined) {
    const n = Number(f.clusters);
    if (!/^\d+$/.test(f.clusters) || n < 2 || n > 100)
      return no(`--clusters must be a whole number from 2 to 100 (the sandbox's clusters), got "${f.clusters}"`);
    if (f.inCluster || f.kubeconfig || given.length)
      return no(
        '--clusters starts that many sandbox clusters; ' +
          '--kubeconfig, --cluster and --in-cluster name real ones: choose one',
      );
    return { ok: true, clusters: [], sandboxClusters: n };
  }
  if (!given.length) return { ok: true, clusters: [], sandboxClusters: 1 };
  if (f.inCluster || f.kubeconfig || f.context || f.sandbox)
    return no(
      '--cluster names each cluster with its kubeconfig and context; ' +
        '--kubeconfig, --context, --sandbox and --in-cluster name another: choose one',
    );
  const clusters: ClusterFlag[] = [];
  for (const value of given) {
    const parsed = parseClusterFlag(value);
    if (!parsed.ok) return parsed;
    if (clusters.some((c) => c.name === parsed.flag.name))
      return no(`--cluster ${parsed.flag.name} is given twice: each cluster needs a name of its own`);
    clusters.push(parsed.flag);
  }
  return { ok: true, clusters, sandboxClusters: 1 };
}

/** The OLM_CONSOLE_OIDC_* variables for the --oidc-* flags: all of issuer and client id, or none. */
export function oidcEnv(
  f: Pick<StartFlags, 'oidcIssuer' | 'oidcClientId' | 'oidcClientSecretFile' | 'oidcCaFile'>,
): { ok: true; env: Record<string, string> } | { ok: false; message: string } {
  const given = [f.oidcIssuer, f.oidcClientId, f.oidcClientSecretFile, f.oidcCaFile].some((v) => v !== undefined);
  if (!given) return { ok: true, env: {} };
  if (!f.oidcIssuer || !f.oidcClientId)
    return {
      ok: false,
      message:
        '--oidc-issuer and --oidc-client-id go together (the secret by --oidc-client-secret-file or OLM_CONSOLE_OIDC_CLIENT_SECRET)',
    };
  let u: URL;
  try {
    u = new URL(f.oidcIssuer);
  } catch {
    return { ok: false, message: `--oidc-issuer must be a URL such as https://idp.example.com, got "${f.oidcIssuer}"` };
  }
  if (u.protocol !== 'https:')
    return {
      ok: false,
      message: `--oidc-issuer must be https (the ID tokens it signs are the people's credentials), got "${f.oidcIssuer}"`,
    };
  const env: Record<string, string> = {
    OLM_CONSOLE_OIDC_ISSUER: f.oidcIssuer,
    OLM_CONSOLE_OIDC_CLIENT_ID: f.oidcClientId,
  };
  if (f.oidcClientSecretFile) env.OLM_CONSOLE_OIDC_CLIENT_SECRET_FILE = f.oidcClientSecretFile;
  if (f.oidcCaFile) env.OLM_CONSOLE_OIDC_CA_FILE = f.oidcCaFile;
  return { ok: true, env };
}

export type BuildDecision = { build: false } | { build: true; reason: string };

/**
 * Whether `npm start` builds before serving: when asked to, when there is no build, or when a
 * source is newer than the build (after a `git pull`, serving the old build would show yesterday's
 * pages). Otherwise the build is reused as it is, which is what makes a second start quick.
 */
export function planBuild(rebuild: boolean, builtAtMs: number | undefined, newestSourceMs: number): BuildDecision {
  if (rebuild) return { build: true, reason: 'asked for by --rebuild' };
  if (builtAtMs === undefined) return { build: true, reason: 'there is no build yet' };
  if (newestSourceMs > builtAtMs) return { build: true, reason: 'the sources changed since the last build' };
  return { build: false };
}

/**
 * The environment of `npm start`'s `next build`. It leaves out the standalone runtime folder
 * (`.next/standalone`, for the container image and `node server.mjs`): `npm start` serves `.next`
 * from the checkout and never reads it, and writing it took 7–17 s of every build. `npm run
 * build` (CI, the image, the browser tests) still writes it; next.config.js reads this variable.
 */
export const START_BUILD_ENV: Readonly<Record<string, string>> = { OLM_CONSOLE_BUILD_STANDALONE: 'false' };

/** The kubeconfig cluster extension where the sandbox names its image registry (lib/sandbox/server/sandbox.ts). */
export const SANDBOX_REGISTRY_EXTENSION = 'olm-console.dev/image-registry';

type SandboxKubeconfig = {
  clusters?: {
    cluster?: {
      'certificate-authority-data'?: unknown;
      extensions?: { name?: unknown; extension?: { url?: unknown } }[];
    };
  }[];
};

function sandboxClusters(kubeconfigText: string): NonNullable<SandboxKubeconfig['clusters']> {
  try {
    return (yaml.load(kubeconfigText) as SandboxKubeconfig | undefined)?.clusters ?? [];
  } catch {
    return [];
  }
}

/**
 * The CAs of every cluster a sandbox kubeconfig names, as one PEM file's text: a sandbox fleet's
 * clusters each serve their API and their image registry with a certificate of their own, and the
 * console reads one registry CA file (OLM_CONSOLE_REGISTRY_CA_FILE), so `npm start --clusters`
 * writes them all into one.
 */
export function sandboxCaBundle(kubeconfigText: string): string {
  const pems = sandboxClusters(kubeconfigText).map((c) => c?.cluster?.['certificate-authority-data']);
  return [...new Set(pems.filter((d): d is string => typeof d === 'string'))]
    .map((d) => Buffer.from(d, 'base64').toString('utf8').trim() + '\n')
    .join('');
}

/**
 * The console's bundle image settings for the sandbox (docs/running.md#bundle-images): its
 * catalogs give bundles by image in the sandbox's registry, so pulls are on, the registry's CA (the
 * sandbox's, `caFile`) is trusted, and its loopback address is named as a private registry, which
 * the console otherwise refuses to dial. A sandbox fleet's kubeconfig names a registry per
 * cluster: each is named (and `caFile` is then sandboxCaBundle's file). What the environment
 * already says is kept: a person's `OLM_CONSOLE_PULL_BUNDLE_IMAGES=false` or own CA file wins (the
 * console reads one CA file; the banner then says the sandbox's images will not verify), and a
 * private registry list is added to. `kubeconfigText` is the sandbox's kubeconfig; without the
 * extension (an older sandbox) nothing is set.
 */
export function sandboxRegistryEnv(
  kubeconfigText: string,
  caFile: string,
  env: Readonly<Record<string, string | undefined>>,
): { env: Record<string, string>; registry?: string; note?: string } {
  const hosts: string[] = [];
  for (const c of sandboxClusters(kubeconfigText)) {
    const found = c?.cluster?.extensions?.find((e) => e?.name === SANDBOX_REGISTRY_EXTENSION);
    const url = found?.extension?.url;
    if (typeof url !== 'string') continue;
    try {
      const host = new URL(url).host;
      if (host && !hosts.includes(host)) hosts.push(host);
    } catch {
      // Not an address: that cluster's registry is not named.
    }
  }
  if (!hosts.length) return { env: {} };
  const registry = hosts.join(',');
  const out: Record<string, string> = {};
  if (env.OLM_CONSOLE_PULL_BUNDLE_IMAGES === undefined) out.OLM_CONSOLE_PULL_BUNDLE_IMAGES = 'true';
  let note: string | undefined;
  if (env.OLM_CONSOLE_REGISTRY_CA_FILE === undefined) out.OLM_CONSOLE_REGISTRY_CA_FILE = caFile;
  else if (env.OLM_CONSOLE_REGISTRY_CA_FILE !== caFile)
    note = `OLM_CONSOLE_REGISTRY_CA_FILE names ${env.OLM_CONSOLE_REGISTRY_CA_FILE}; the sandbox registry's CA is ${caFile}`;
  const named = (env.OLM_CONSOLE_PRIVATE_REGISTRIES ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  const added = hosts.filter((h) => !named.includes(h));
  if (added.length) out.OLM_CONSOLE_PRIVATE_REGISTRIES = [...named, ...added].join(',');
  // The secret the sandbox seeds for its one protected repository, read as each person (a viewer
  // may not get it, and is told so), as operator-controller's --global-pull-secret names one.
  if (env.OLM_CONSOLE_PULL_SECRET === undefined) out.OLM_CONSOLE_PULL_SECRET = `olm/${PULL_SECRET_NAME}`;
  return { env: out, registry, ...(note ? { note } : {}) };
}
