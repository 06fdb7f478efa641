// Standing in for OLM v0.38.0's catalog operator at one moment of a move to OLM v1: the write
// EnsureServiceAccount (catalog/step_ensurer.go) makes when it executes an InstallPlan step again
// for an account that exists (the step's labels in place of the live ones, the live annotations
// kept), made right after the move's mark lands on Cachely's account. Used by
// lib/server/olm-v1/migration-v0-writes.test.ts and its real-cluster twin.
import type { KubeClient } from '../../k8s/client';
import { SERVICE_ACCOUNT_TYPE } from '../../k8s/core-kinds';

export const ACCOUNT = 'cachely-controller';
export const MANAGED_BY = 'app.kubernetes.io/managed-by';

export type Account = {
  metadata: {
    name: string;
    namespace: string;
    uid?: string;
    resourceVersion?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
};

/**
 * The admin's client with one thing added: the first time a patch puts Helm's managed-by label on
 * Cachely's account, `then` runs right after it lands (what OLM v0 did at that moment).
 */
export function afterFirstMark(admin: KubeClient, then: () => Promise<void>): KubeClient {
  let fired = false;
  return new Proxy(admin, {
    get(target, prop, receiver) {
      if (prop !== 'patch') return Reflect.get(target, prop, receiver) as unknown;
      return async (...args: Parameters<KubeClient['patch']>) => {
        const out = await target.patch(...args);
        const [type, name, body] = args;
        const labels = (body as { metadata?: { labels?: Record<string, unknown> } }).metadata?.labels;
        if (!fired && type.kind === 'ServiceAccount' && name === ACCOUNT && labels?.[MANAGED_BY] === 'Helm') {
          fired = true;
          await then();
        }
        return out;
      };
    },
  });
}

/** OLM v0.38.0's EnsureServiceAccount on an existing account: the step's labels, the live annotations. */
export async function rewriteAsOlmV0(admin: KubeClient) {
  const sa = await admin.get<Account>(SERVICE_ACCOUNT_TYPE, ACCOUNT, 'operators');
  await admin.replace(SERVICE_ACCOUNT_TYPE, { ...sa, metadata: { ...sa.metadata, labels: { 'olm.managed': 'true' } } });
}
