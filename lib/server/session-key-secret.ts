// Replicas must seal cookies with one key. Rather than have every team generate one (or keep
// a sample key copied from the manifests), the first replica to start writes a random key into
// the Secret the manifests create empty (deploy/base), and every replica reads it from there.
// A race between two first replicas is settled by the API server's optimistic concurrency: the
// loser's write conflicts and it reads the winner's key. `kubectl apply` of the manifests again
// leaves the key alone (the Secret there has no data, so there is nothing to overwrite).
import { randomBytes } from 'node:crypto';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import { SECRET_TYPE } from '../k8s/core-kinds';

export const SESSION_KEY_FIELD = 'session-key';

interface Secret {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  data?: Record<string, string>;
}

/** The session key kept in Secret `namespace/name`, written there first if it holds none. */
export async function sharedSessionKey(client: KubeClient, namespace: string, name: string): Promise<string> {
  const where = `Secret ${namespace}/${name}`;
  for (let attempt = 0; attempt < 5; attempt++) {
    let secret: Secret;
    try {
      secret = await client.get<Secret>(SECRET_TYPE, name, namespace);
    } catch (err) {
      throw new Error(
        `the session key is kept in ${where}, which the console's identity cannot read: ${(err as Error).message}`,
        { cause: err },
      );
    }
    const kept = secret.data?.[SESSION_KEY_FIELD];
    if (kept) return Buffer.from(kept, 'base64').toString('utf8').trim();
    const key = randomBytes(32).toString('hex');
    try {
      await client.replace(SECRET_TYPE, {
        ...secret,
        data: { ...secret.data, [SESSION_KEY_FIELD]: Buffer.from(key).toString('base64') },
      });
      return key;
    } catch (err) {
      if (isKubeError(err, 409)) continue;
      throw new Error(
        `${where} holds no session key and the console's identity cannot write one: ${(err as Error).message}`,
        { cause: err },
      );
    }
  }
  throw new Error(`${where} kept changing while the console tried to write its session key`);
}
