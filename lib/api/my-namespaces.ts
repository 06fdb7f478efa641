// The answer of `GET /api/me/namespaces`: the namespaces a person can use, for every place the
// console asks for one (Installed Operators, the install wizard), and where the list came from.
// Shared by the route and the chooser. Types only.

/**
 * Where the list came from: OpenShift's projects (each person sees their own), every namespace
 * (the person may list them), or the names the console was given and an access review confirmed
 * (the person may list neither: a namespace they typed before, their service account's own).
 */
export type NamespaceSource = 'projects' | 'namespaces' | 'access-reviews';

export interface RefusedNamespace {
  name: string;
  /** Why the person may not work there, in the cluster's words. */
  reason: string;
}

export interface MyNamespacesAnswer {
  /** Who asked, as the API server authenticated them: the chooser remembers typed names per person. */
  username: string;
  source: NamespaceSource;
  /** May read operators in every namespace at once (list ClusterServiceVersions cluster-wide). */
  clusterWide: boolean;
  /** The namespaces offered, sorted. */
  namespaces: string[];
  /** Names the request offered that an access review refused, each with why. */
  refused: RefusedNamespace[];
}
