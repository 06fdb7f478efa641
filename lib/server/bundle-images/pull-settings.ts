// Whether and how the console pulls bundle images, from its environment (docs/running.md): off
// unless OLM_CONSOLE_PULL_BUNDLE_IMAGES=true, since each pull is a request the console makes with
// its own network identity to an address a catalog names. OLM_CONSOLE_REGISTRY_CA_FILE adds CAs
// (PEM) to the system's for registries; OLM_CONSOLE_PRIVATE_REGISTRIES lists the registry hosts
// (host or host:port, comma-separated) that may be on loopback, private or link-local addresses,
// which are otherwise refused so that a catalog cannot aim the console at the cloud metadata
// service or a cluster-internal endpoint. OLM_CONSOLE_PULL_SECRET=NAMESPACE/NAME names a pull
// secret that applies to every bundle, as operator-controller's --global-pull-secret does (read
// as the person asking, never as the console: pull-secrets.ts). The limits bound what one hostile
// image may cost.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PullLimits {
  /** A manifest or image index. */
  manifestBytes: number;
  /** One layer as sent (compressed). */
  layerBytes: number;
  /** All layers of an image once decompressed. */
  expandedBytes: number;
  /** Entries in all layers of an image. */
  entries: number;
  layers: number;
  /** One request, from connecting to the last byte. */
  timeoutMs: number;
}

export const DEFAULT_LIMITS: PullLimits = {
  manifestBytes: 4 * 1024 * 1024,
  layerBytes: 32 * 1024 * 1024,
  expandedBytes: 64 * 1024 * 1024,
  entries: 10_000,
  layers: 64,
  timeoutMs: 20_000,
};

/** The on-disk cache's bound: bundles are a few hundred KB; the oldest read go first. */
export const DEFAULT_CACHE_BYTES = 128 * 1024 * 1024;

export interface PullSettings {
  /** Extra CAs (PEM), trusted beside the system's. */
  ca: string[];
  /** Registry hosts (lower case, `host` or `host:port`) allowed on non-public addresses. */
  privateRegistries: Set<string>;
  limits: PullLimits;
  /** Where read bundles are kept by digest, when the console has a snapshot folder. */
  cacheDir?: string;
  cacheBytes: number;
  /** The pull secret that applies to every bundle (OLM_CONSOLE_PULL_SECRET). */
  pullSecret?: { namespace: string; name: string };
  /** CAs (PEM) trusted for one registry only, by lower-case host[:port] (the cluster's image configuration). */
  registryCas?: ReadonlyMap<string, string>;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const SECRET_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** The settings, or why the console does not pull (a sentence for a person). */
export function pullSettings(env: NodeJS.ProcessEnv = process.env): PullSettings | { off: string } {
  if (env.OLM_CONSOLE_PULL_BUNDLE_IMAGES !== 'true')
    return { off: 'this console does not pull bundle images (OLM_CONSOLE_PULL_BUNDLE_IMAGES is not true)' };
  const caFile = env.OLM_CONSOLE_REGISTRY_CA_FILE;
  let ca: string[] = [];
  if (caFile) {
    try {
      ca = [readFileSync(caFile, 'utf8')];
    } catch (err) {
      return { off: `the registry CA file ${caFile} cannot be read: ${(err as Error).message}` };
    }
  }
  const privateRegistries = new Set(
    (env.OLM_CONSOLE_PRIVATE_REGISTRIES ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  );
  const global = env.OLM_CONSOLE_PULL_SECRET?.trim();
  let pullSecret: PullSettings['pullSecret'];
  if (global) {
    const [namespace = '', name = '', ...rest] = global.split('/');
    if (
      rest.length ||
      !DNS_LABEL.test(namespace) ||
      namespace.length > 63 ||
      !SECRET_NAME.test(name) ||
      name.length > 253
    )
      return {
        off: `OLM_CONSOLE_PULL_SECRET is ${JSON.stringify(global.slice(0, 300))}, not NAMESPACE/NAME of a secret`,
      };
    pullSecret = { namespace, name };
  }
  const snapshots = env.OLM_CONSOLE_CATALOG_SNAPSHOT_DIR;
  return {
    ca,
    privateRegistries,
    limits: DEFAULT_LIMITS,
    ...(snapshots ? { cacheDir: join(snapshots, 'bundle-images') } : {}),
    cacheBytes: DEFAULT_CACHE_BYTES,
    ...(pullSecret ? { pullSecret } : {}),
  };
}
