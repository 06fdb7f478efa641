// An install as files for Git: a kustomize tree split as the GitOps layout keeps cluster-wide
// pieces apart from an application's. `cluster-scope/` holds what a cluster administrator owns —
// the Namespace, its OperatorGroup and, for an operator installed for all namespaces, its
// Subscription, and the service account a scoped install runs as with the rights granted to it;
// a Subscription scoped to chosen namespaces goes to the application's folder.
// Every object is cleaned of what the API server or OLM writes (status, uid, resourceVersion,
// managedFields, timestamps, OLM's labels and annotations), so the tree applies to an empty
// cluster as it is (`kubectl apply -k`).
import { dump } from 'js-yaml';

export interface KubeObjectLike {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
    [k: string]: unknown;
  };
  spec?: unknown;
  [k: string]: unknown;
}

export interface ExportInput {
  /** The Subscription, as planned or as read from the cluster. */
  subscription: KubeObjectLike;
  operatorGroup: KubeObjectLike;
  /** The Subscription's Namespace; when absent, a plain one is written. */
  namespace?: KubeObjectLike;
  /** The application folder's name (default: the Subscription's namespace). */
  application?: string;
  /**
   * With an OperatorGroup that names a service account: the account and the Role, ClusterRole and
   * bindings that grant it what the install needs — an administrator's, so in `cluster-scope/`.
   */
  access?: KubeObjectLike[];
}

export interface ExportFile {
  path: string;
  content: string;
}

/** Label and annotation keys the API server, OLM or this console set, never a person. */
const MANAGED_KEY = [
  /^operators\.coreos\.com\//,
  /^olm\./,
  /^olm-console\.io\//,
  /^kubernetes\.io\/metadata\.name$/,
  /^kubectl\.kubernetes\.io\/last-applied-configuration$/,
  /^openshift\.io\/sa\.scc\./,
];

function keep(map: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!map) return undefined;
  const out = Object.fromEntries(Object.entries(map).filter(([k]) => !MANAGED_KEY.some((re) => re.test(k))));
  return Object.keys(out).length ? out : undefined;
}

/** The object as a person would write it: identity, their labels and annotations, and spec. */
export function cleanObject(o: KubeObjectLike, defaults: { apiVersion: string; kind: string }): KubeObjectLike {
  const labels = keep(o.metadata?.labels);
  const annotations = keep(o.metadata?.annotations);
  const metadata = {
    name: o.metadata?.name,
    ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
    ...(labels ? { labels } : {}),
    ...(annotations ? { annotations } : {}),
  };
  const kind = o.kind ?? defaults.kind;
  // A Namespace's spec is the API server's (finalizers: [kubernetes]); a person writes none.
  const spec = kind === 'Namespace' ? undefined : o.spec;
  return {
    apiVersion: o.apiVersion ?? defaults.apiVersion,
    kind,
    metadata,
    ...(spec && Object.keys(spec as object).length ? { spec } : kind === 'OperatorGroup' ? { spec: {} } : {}),
  };
}

// What RBAC objects carry besides metadata: a person writes these, never the API server.
const RBAC_FIELDS = [
  'rules',
  'aggregationRule',
  'roleRef',
  'subjects',
  'imagePullSecrets',
  'secrets',
  'automountServiceAccountToken',
] as const;

/** A service account or RBAC object as a person would write it. */
export function cleanAccessObject(o: KubeObjectLike): KubeObjectLike {
  const base = cleanObject(o, { apiVersion: o.apiVersion ?? 'v1', kind: o.kind ?? '' });
  const rest = Object.fromEntries(RBAC_FIELDS.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
  // A ServiceAccount's token secrets are the cluster's, not the person's.
  if (o.kind === 'ServiceAccount') delete rest.secrets;
  return { ...base, ...rest };
}

/** An OperatorGroup with neither target namespaces nor a selector targets all namespaces. */
export function targetsAllNamespaces(og: KubeObjectLike): boolean {
  const spec = (og.spec ?? {}) as { targetNamespaces?: string[]; selector?: unknown };
  return !spec.selector && (!spec.targetNamespaces || spec.targetNamespaces.length === 0);
}

function yaml(o: unknown): string {
  return dump(o, { noRefs: true, lineWidth: 120 });
}

function kustomization(resources: string[]): string {
  return yaml({ apiVersion: 'kustomize.config.k8s.io/v1beta1', kind: 'Kustomization', resources });
}

export function gitopsTree(input: ExportInput): ExportFile[] {
  const sub = cleanObject(input.subscription, { apiVersion: 'operators.coreos.com/v1alpha1', kind: 'Subscription' });
  const ns = sub.metadata?.namespace ?? '';
  const subName = sub.metadata?.name ?? '';
  const og = cleanObject(input.operatorGroup, { apiVersion: 'operators.coreos.com/v1', kind: 'OperatorGroup' });
  const namespace = cleanObject(input.namespace ?? { metadata: { name: ns } }, { apiVersion: 'v1', kind: 'Namespace' });
  const global = targetsAllNamespaces(og);
  const app = input.application || ns;

  const access = (input.access ?? []).map(cleanAccessObject).map((o) => ({
    path: `cluster-scope/${(o.kind ?? '').toLowerCase()}s/${o.metadata?.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata?.name}.yaml`,
    content: yaml(o),
  }));
  const cluster: ExportFile[] = [
    { path: `cluster-scope/namespaces/${ns}.yaml`, content: yaml(namespace) },
    ...access,
    { path: `cluster-scope/operatorgroups/${ns}/${og.metadata?.name}.yaml`, content: yaml(og) },
    ...(global ? [{ path: `cluster-scope/subscriptions/${ns}/${subName}.yaml`, content: yaml(sub) }] : []),
  ];
  const application: ExportFile[] = global
    ? []
    : [{ path: `${app}/subscriptions/${subName}.yaml`, content: yaml(sub) }];
  const rel = (prefix: string, files: ExportFile[]) => files.map((f) => f.path.slice(prefix.length + 1));
  return [
    { path: 'kustomization.yaml', content: kustomization(['cluster-scope', ...(application.length ? [app] : [])]) },
    { path: 'cluster-scope/kustomization.yaml', content: kustomization(rel('cluster-scope', cluster)) },
    ...cluster,
    ...(application.length
      ? [{ path: `${app}/kustomization.yaml`, content: kustomization(rel(app, application)) }, ...application]
      : []),
  ];
}
