// The os/arch pairs of the cluster's nodes (and each node's labels and taints), read with the person's own identity. Only someone
// who may list nodes learns them; for anyone else the answer is "unknown", never a guess.
import type { KubeClient } from '@/lib/k8s/client';
import { isKubeError } from '@/lib/k8s/errors';
import type { Platform } from '@/lib/hub/platforms';
import type { NodeFacts } from '@/lib/olm/resources/node-placement';
import { NODE_TYPE } from '../k8s/core-kinds';

interface NodeLike {
  metadata?: { name?: string; labels?: Record<string, string> };
  spec?: { unschedulable?: boolean; taints?: { key: string; value?: string; effect: string }[] };
  status?: { nodeInfo?: { architecture?: string; operatingSystem?: string } };
}

/** Each node's labels, taints and cordon, for the placement check; undefined when the person may not list nodes. */
export async function nodeFacts(client: KubeClient): Promise<NodeFacts[] | undefined> {
  try {
    return (await client.listAll<NodeLike>(NODE_TYPE)).items.map((n) => ({
      name: n.metadata?.name ?? '',
      labels: n.metadata?.labels ?? {},
      taints: (n.spec?.taints ?? []).map((t) => ({
        key: t.key,
        ...(t.value ? { value: t.value } : {}),
        effect: t.effect,
      })),
      ...(n.spec?.unschedulable ? { unschedulable: true } : {}),
    }));
  } catch (err) {
    if (isKubeError(err, 403)) return undefined;
    throw err;
  }
}

export async function nodePlatforms(client: KubeClient): Promise<Platform[] | undefined> {
  try {
    const nodes = (await client.listAll<NodeLike>(NODE_TYPE)).items;
    const out = new Map<string, Platform>();
    for (const n of nodes) {
      const os = n.metadata?.labels?.['kubernetes.io/os'] ?? n.status?.nodeInfo?.operatingSystem;
      const arch = n.metadata?.labels?.['kubernetes.io/arch'] ?? n.status?.nodeInfo?.architecture;
      if (os && arch) out.set(`${os}/${arch}`, { os, arch });
    }
    return [...out.values()];
  } catch (err) {
    if (isKubeError(err, 403)) return undefined;
    throw err;
  }
}
