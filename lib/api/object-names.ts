// `GET /api/namespaces/<ns>/<secrets|configmaps>` and `GET /api/cluster/<storageclasses|
// priorityclasses>`: the names a picker offers. Types only.

export type NamespacedNamedKind = 'secrets' | 'configmaps';
export type ClusterNamedKind = 'storageclasses' | 'priorityclasses';
export type NamedKind = NamespacedNamedKind | ClusterNamedKind;

export const NAMESPACED_NAMED_KINDS: readonly NamespacedNamedKind[] = ['secrets', 'configmaps'];
export const CLUSTER_NAMED_KINDS: readonly ClusterNamedKind[] = ['storageclasses', 'priorityclasses'];

export function isClusterNamedKind(kind: NamedKind): kind is ClusterNamedKind {
  return (CLUSTER_NAMED_KINDS as readonly string[]).includes(kind);
}

export interface ObjectNames {
  names: string[];
  /** There are more than the first page holds; the picker still takes a typed name. */
  more: boolean;
}
