// Whether an operator's pods could be scheduled anywhere, given the node selector and
// tolerations its Deployment will carry: a pod no node accepts stays Pending, the Deployment never
// becomes available, and OLM keeps the CSV Installing (it checks a Deployment's readiness before
// its spec, so a corrected configuration is only written after its 5-minute install timeout).
// The scheduler's two simplest filters, as Kubernetes defines them: every nodeSelector label must
// match, and every NoSchedule / NoExecute taint must be tolerated.
import type { Toleration } from './subscription-config';

export interface NodeFacts {
  name: string;
  labels: Record<string, string>;
  taints: { key: string; value?: string; effect: string }[];
  unschedulable?: boolean;
}

/** A toleration matches a taint by key (empty key with Exists: any), value with Equal, and effect (empty: any). */
export function tolerates(t: Toleration, taint: NodeFacts['taints'][number]): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (!t.key) return t.operator === 'Exists';
  if (t.key !== taint.key) return false;
  return t.operator === 'Exists' || (t.value ?? '') === (taint.value ?? '');
}

export interface PlacementVerdict {
  /** Nodes the pods could run on. */
  fits: string[];
  /** Empty when some node fits; else why none does, in words. */
  problem?: string;
}

export function placement(
  nodes: readonly NodeFacts[],
  nodeSelector: Record<string, string> | undefined,
  tolerations: readonly Toleration[] | undefined,
): PlacementVerdict {
  const selector = Object.entries(nodeSelector ?? {});
  const selected = nodes.filter((n) => !n.unschedulable && selector.every(([k, v]) => n.labels[k] === v));
  const untolerated = (n: NodeFacts) =>
    n.taints.filter(
      (taint) =>
        (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') &&
        !(tolerations ?? []).some((t) => tolerates(t, taint)),
    );
  const fits = selected.filter((n) => untolerated(n).length === 0).map((n) => n.name);
  if (fits.length) return { fits };
  if (!nodes.length) return { fits, problem: 'the cluster has no nodes' };
  if (!selected.length) {
    const wanted = selector.map(([k, v]) => (v ? `${k}=${v}` : `${k} (empty value)`)).join(', ');
    return {
      fits,
      problem: selector.length ? `no schedulable node has every label ${wanted}` : 'no node is schedulable',
    };
  }
  const taints = [
    ...new Set(
      selected.flatMap((n) => untolerated(n).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`)),
    ),
  ];
  return {
    fits,
    problem: `the ${selected.length === 1 ? 'node' : `${selected.length} nodes`} with ${selector.length ? 'these labels' : 'room'} ${selected.length === 1 ? 'has' : 'have'} taints it does not tolerate: ${taints.join(', ')}`,
  };
}
