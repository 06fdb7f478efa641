// Test helpers that act on a sandbox the way an admin with kubectl would: through the
// Kubernetes API, with the console's own client, never through the sandbox's internals.
import { KubeClient } from '../../k8s/client';
import { kubeConfigForToken, resolveClusterAccess } from '../../k8s/cluster-config';
import { isKubeError } from '../../k8s/errors';
import { CSV_TYPE, type ClusterServiceVersion } from '../../olm/resources/cluster-service-version';
import { OPERATOR_GROUP_TYPE } from '../../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { NAMESPACE_TYPE } from '../install';

export function clientAs(sb: { kubeconfigPath: string; tokens: Record<string, string> }, user: string): KubeClient {
  return new KubeClient(
    kubeConfigForToken(
      resolveClusterAccess({ kubeconfig: sb.kubeconfigPath, perUserTokens: true }, {}),
      sb.tokens[user]!,
    ),
  );
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export async function ensureNamespace(client: KubeClient, name: string): Promise<void> {
  try {
    await client.create(NAMESPACE_TYPE, { metadata: { name } });
  } catch (err) {
    if (!isKubeError(err, 409)) throw err;
  }
}

export interface Subscribe {
  namespace: string;
  package: string;
  channel: string;
  approval?: 'Automatic' | 'Manual';
  startingCSV?: string;
  /** The OperatorGroup to create: targets ([''] for all), or none when the namespace has one. */
  targets?: string[];
  /** The CatalogSource in the global namespace olm (default: the demo catalog). */
  source?: string;
}

export async function subscribe(client: KubeClient, s: Subscribe): Promise<void> {
  await ensureNamespace(client, s.namespace);
  if (s.targets) {
    const all = s.targets.length === 1 && s.targets[0] === '';
    await client.create(OPERATOR_GROUP_TYPE, {
      metadata: { name: `${s.namespace}-og`, namespace: s.namespace },
      spec: all ? {} : { targetNamespaces: s.targets },
    });
  }
  await client.create<Subscription>(SUBSCRIPTION_TYPE, {
    metadata: { name: s.package, namespace: s.namespace },
    spec: {
      name: s.package,
      source: s.source ?? 'olm-console-demo',
      sourceNamespace: 'olm',
      channel: s.channel,
      installPlanApproval: s.approval ?? 'Automatic',
      ...(s.startingCSV ? { startingCSV: s.startingCSV } : {}),
    },
  });
}

export async function csvPhase(client: KubeClient, namespace: string, name: string): Promise<string | undefined> {
  try {
    return (await client.get<ClusterServiceVersion>(CSV_TYPE, name, namespace)).status?.phase;
  } catch (err) {
    if (isKubeError(err, 404)) return undefined;
    throw err;
  }
}

export function waitForCsv(client: KubeClient, namespace: string, name: string, phase = 'Succeeded'): Promise<true> {
  return waitFor(`${namespace}/${name} ${phase}`, async () =>
    (await csvPhase(client, namespace, name)) === phase ? true : undefined,
  );
}
