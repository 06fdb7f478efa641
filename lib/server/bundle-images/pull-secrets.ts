// The pull secrets that apply to a bundle image, read with the person's own client, never the
// console's. Which secrets OLM pulls a bundle with:
// - OLM v0 (v0.38.0, pkg/controller/bundle/bundle_unpacker.go) unpacks a bundle in a Job in the
//   CatalogSource's namespace whose pod has the CatalogSource's `spec.secrets` as its
//   imagePullSecrets; the kubelet adds the node's own credentials.
// - operator-controller v1.2.0 pulls with the one secret its `--global-pull-secret=NS/NAME` flag
//   names (its `.dockerconfigjson`); a ClusterCatalog has no pull secret of its own (`spec.source.
//   image` holds `ref` and `pollIntervalMinutes` only).
// - On OpenShift, `openshift-config/pull-secret` is the cluster's global pull secret, the nodes'
//   credentials.
// The console cannot read a node's or operator-controller's flags, so the one of its operator's
// choosing stands for them (OLM_CONSOLE_PULL_SECRET, pull-settings.ts), and OpenShift's is taken
// where the cluster serves config.openshift.io. A secret the person may not get is not read with
// any other identity: it is named with the reason, and an image that needs it stays unknown.
import type { KubeClient } from '../../k8s/client';
import { SECRET_TYPE } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../../olm/resources/catalog-source';
import { credentialFor, parseDockerConfig, type RegistryCredential } from './docker-config';
import type { ImageReference } from './image-reference';

/** The catalog a bundle comes from: a v0 CatalogSource or a v1 ClusterCatalog. */
export type BundleCatalog =
  { kind: 'CatalogSource'; namespace: string; name: string } | { kind: 'ClusterCatalog'; name: string };

export interface SecretKey {
  namespace: string;
  name: string;
}

/** A secret read as the person, with its uid (a secret deleted and made again is another one). */
export interface ReadSecret extends SecretKey {
  uid: string;
  credentials: RegistryCredential[];
}

export interface PullSecrets {
  read: ReadSecret[];
  /** Sentences: the secrets (or the CatalogSource naming them) this person could not read, and why. */
  notRead: string[];
}

export const OPENSHIFT_PULL_SECRET: SecretKey = { namespace: 'openshift-config', name: 'pull-secret' };

export const secretText = (s: SecretKey) => `${s.namespace}/${s.name}`;

function denied(err: unknown, what: string): string | undefined {
  if (isKubeError(err, 403)) return `you may not get ${what} (403 Forbidden)`;
  if (isKubeError(err, 404)) return `${what} does not exist (404 NotFound)`;
  return undefined;
}

/** The secrets that apply to bundles of `catalog`, in the order they are tried. */
async function secretKeys(
  client: KubeClient,
  catalog: BundleCatalog | undefined,
  global: SecretKey | undefined,
  openshift: boolean,
  notRead: string[],
): Promise<SecretKey[]> {
  const keys: SecretKey[] = [];
  if (catalog?.kind === 'CatalogSource') {
    try {
      const cs = await client.get<CatalogSource>(CATALOG_SOURCE_TYPE, catalog.name, catalog.namespace);
      for (const name of cs.spec.secrets ?? []) if (name) keys.push({ namespace: catalog.namespace, name });
    } catch (err) {
      const why = denied(err, `CatalogSource ${catalog.namespace}/${catalog.name}`);
      if (!why) throw err;
      notRead.push(`${why}, whose spec.secrets name its pull secrets`);
    }
  }
  if (global) keys.push(global);
  if (openshift) keys.push(OPENSHIFT_PULL_SECRET);
  return keys.filter((k, i) => keys.findIndex((o) => secretText(o) === secretText(k)) === i);
}

/** The applicable secrets, each read as the person (the client), or named with why it was not. */
export async function readPullSecrets(
  client: KubeClient,
  catalog: BundleCatalog | undefined,
  global: SecretKey | undefined,
  openshift: boolean,
): Promise<PullSecrets> {
  const notRead: string[] = [];
  const read: ReadSecret[] = [];
  for (const key of await secretKeys(client, catalog, global, openshift, notRead)) {
    const what = `secret ${secretText(key)}`;
    let secret: { metadata?: { uid?: string }; type?: string; data?: Record<string, string> };
    try {
      secret = await client.get(SECRET_TYPE, key.name, key.namespace);
    } catch (err) {
      const why = denied(err, what);
      if (!why) throw err;
      notRead.push(why);
      continue;
    }
    const credentials = parseDockerConfig(secret.type, secret.data);
    if ('error' in credentials) notRead.push(`${what} cannot be used: ${credentials.error}`);
    else read.push({ ...key, uid: secret.metadata?.uid ?? '', credentials });
  }
  return { read, notRead };
}

export interface ChosenCredential {
  secret: ReadSecret;
  credential: RegistryCredential;
}

/**
 * Each secret's credentials for the image's registry and repository, in the secrets' order: tried
 * in turn, as the kubelet tries each pull secret that matches until one pulls.
 */
export function credentialsFor(ref: ImageReference, secrets: PullSecrets): ChosenCredential[] {
  return secrets.read.flatMap((secret) => {
    const credential = credentialFor(ref.registry, ref.repository, secret.credentials);
    return credential ? [{ secret, credential }] : [];
  });
}

/** Whether the person can get the secret now, and it is the same one (same uid). */
export async function stillReadable(client: KubeClient, s: SecretKey & { uid: string }): Promise<boolean> {
  try {
    const now = await client.get<{ metadata?: { uid?: string } }>(SECRET_TYPE, s.name, s.namespace);
    return !!s.uid && now.metadata?.uid === s.uid;
  } catch (err) {
    if (denied(err, '')) return false;
    throw err;
  }
}
