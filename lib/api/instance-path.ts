// Where an operand lives, as one segment of the instance page's and route's path: its namespace,
// or `_cluster` for an instance of a cluster-scoped API. An underscore is never in a namespace's
// name (a DNS label), so the two cannot be confused.
export const CLUSTER_SEGMENT = '_cluster';

export function instanceSegment(namespace: string | undefined): string {
  return namespace || CLUSTER_SEGMENT;
}

/** The namespace a path segment names, or undefined for a cluster-scoped instance. */
export function namespaceOfSegment(segment: string): string | undefined {
  return segment === CLUSTER_SEGMENT ? undefined : segment;
}

/** How a person reads where an instance is. */
export function placeOf(namespace: string | undefined): string {
  return namespace ? `in ${namespace}` : 'cluster-scoped';
}
