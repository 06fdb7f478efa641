// The credentials of the sandbox registry's protected repository, kept beside the kubeconfig (as
// the seed users' tokens are) so that a restart keeps them, and the pull secret the sandbox seeds
// with them: a `kubernetes.io/dockerconfigjson` Secret, as `kubectl create secret docker-registry`
// writes one, `{"auths": {"<host:port>": {"username", "password", "auth"}}}`. It names the
// registry's address of this start, so it is written again when the port changed.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { ApiServer } from '../server/api-server';
import { newCredentials, type RegistryCredentials } from './registry-auth';

/** The Secret's name; it lives in the catalog namespace (olm, or openshift-marketplace). */
export const PULL_SECRET_NAME = 'sandbox-registry-pull-secret';

export function loadRegistryCredentials(file: string): RegistryCredentials {
  try {
    if (existsSync(file)) {
      const c = JSON.parse(readFileSync(file, 'utf8')) as Partial<RegistryCredentials>;
      if (typeof c.username === 'string' && c.username && typeof c.password === 'string' && c.password)
        return { username: c.username, password: c.password };
    }
  } catch {
    // made again below
  }
  const made = newCredentials();
  writeFileSync(file, JSON.stringify(made, null, 2) + '\n', { mode: 0o600 });
  return made;
}

export function dockerConfigJson(host: string, c: RegistryCredentials): string {
  const auth = Buffer.from(`${c.username}:${c.password}`).toString('base64');
  return JSON.stringify({ auths: { [host]: { username: c.username, password: c.password, auth } } });
}

/** Creates the pull secret in `namespace`, or brings its content up to date. */
export function seedPullSecret(api: ApiServer, namespace: string, host: string, c: RegistryCredentials): void {
  const secrets = api.resources.find('', 'v1', 'secrets')!;
  const data = { '.dockerconfigjson': Buffer.from(dockerConfigJson(host, c)).toString('base64') };
  const existing = api.storeGet(secrets, namespace, PULL_SECRET_NAME);
  if (!existing) {
    api.createObject(secrets, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: {
        name: PULL_SECRET_NAME,
        namespace,
        labels: { 'app.kubernetes.io/managed-by': 'olm-console-sandbox' },
      },
      type: 'kubernetes.io/dockerconfigjson',
      data,
    });
  } else if (JSON.stringify((existing as { data?: unknown }).data) !== JSON.stringify(data)) {
    api.updateObject(secrets, { ...existing, data } as typeof existing);
  }
}
