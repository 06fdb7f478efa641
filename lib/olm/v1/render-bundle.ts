// How OLM v1 turns a registry+v1 bundle (a CSV and its other manifests) into the plain objects it
// applies (operator-controller v1.2.0 rukpak/convert/registryv1.go Convert): the install namespace
// is spec.namespace; by default the only target is all namespaces, so the CSV must support
// AllNamespaces; API services, webhooks and unsupported kinds are refused; each deployment becomes
// a Deployment, each service account a ServiceAccount, namespaced permissions become ClusterRoles
// (AllNamespaces), with names `<csv>-<sa>-<hash of the permission>`. docs/olm-v1/install.md.
import { createHash } from 'node:crypto';
import { installsForAllNamespaces } from './install-modes';

type Obj = { apiVersion: string; kind: string; metadata: Record<string, unknown> } & Record<string, unknown>;
type Rule = {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
};
type Permission = { serviceAccountName?: string; rules?: Rule[] };

// operator-registry pkg/lib/bundle/supported_resources.go: kind → namespaced.
const SUPPORTED: Record<string, boolean> = {
  CustomResourceDefinition: false,
  ClusterRole: false,
  ClusterRoleBinding: false,
  PriorityClass: false,
  VerticalPodAutoscaler: false,
  ConsoleYAMLSample: false,
  ConsoleQuickStart: false,
  ConsoleCLIDownload: false,
  ConsoleLink: false,
  Service: true,
  ServiceAccount: true,
  Role: true,
  RoleBinding: true,
  PrometheusRule: true,
  ServiceMonitor: true,
  Secret: true,
  ConfigMap: true,
  PodDisruptionBudget: true,
};

/** Go's json.Marshal of a PolicyRule: struct field order, empty optional lists left out, HTML escaped. */
function goRule(r: Rule): string {
  const parts = [`"verbs":${JSON.stringify(r.verbs ?? null)}`];
  for (const k of ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const)
    if (r[k]?.length) parts.push(`"${k}":${JSON.stringify(r[k])}`);
  return `{${parts.join(',')}}`;
}

const escapeHtml = (s: string) => s.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

/** util.DeepHashObject: base 36 of SHA-224 over the JSON encoding (with its newline) of the permission. */
export function permissionHash(p: Permission): string {
  const json = escapeHtml(
    `{"serviceAccountName":${JSON.stringify(p.serviceAccountName ?? '')},"rules":${
      p.rules ? `[${p.rules.map(goRule).join(',')}]` : 'null'
    }}\n`,
  );
  const digest = createHash('sha224').update(json).digest('hex');
  return BigInt(`0x${digest}`).toString(36);
}

function generateName(base: string, p: Permission): string {
  const hash = permissionHash(p);
  const b = base.length + hash.length > 63 ? base.slice(0, 63 - hash.length - 1) : base;
  return `${b}-${hash}`;
}

const saName = (n: string | undefined) => n || 'default';

export function renderBundle(
  csv: Obj,
  others: readonly Obj[],
  installNamespace: string,
): { objects: Obj[] } | { error: string } {
  const spec = (csv.spec ?? {}) as {
    installModes?: { type: string; supported: boolean }[];
    apiservicedefinitions?: { owned?: unknown[] };
    webhookdefinitions?: unknown[];
    install?: {
      spec?: {
        deployments?: { name: string; label?: Record<string, string>; spec?: Record<string, unknown> }[];
        permissions?: Permission[];
        clusterPermissions?: Permission[];
      };
    };
  };
  const supported = (spec.installModes ?? [])
    .filter((m) => m.supported)
    .map((m) => m.type)
    .sort();
  if (!installsForAllNamespaces(spec.installModes ?? []))
    return { error: `supported install modes [${supported.join(' ')}] do not support targeting all namespaces` };
  if (spec.apiservicedefinitions?.owned?.length) return { error: 'apiServiceDefintions are not supported' };
  if (spec.webhookdefinitions?.length) return { error: 'webhookDefinitions are not supported' };

  const csvName = String((csv.metadata as { name?: string }).name ?? '');
  const csvAnnotations = ((csv.metadata as { annotations?: Record<string, string> }).annotations ?? {}) as Record<
    string,
    string
  >;
  const serviceAccounts = new Map<string, Obj>();
  const addSa = (n: string) => {
    if (!serviceAccounts.has(n))
      serviceAccounts.set(n, {
        apiVersion: 'v1',
        kind: 'ServiceAccount',
        metadata: { name: n, namespace: installNamespace },
      });
  };
  const deployments: Obj[] = [];
  for (const d of spec.install?.spec?.deployments ?? []) {
    const depSpec = structuredClone(d.spec ?? {}) as {
      template?: { metadata?: Record<string, unknown>; spec?: { serviceAccountName?: string } };
    };
    depSpec.template ??= {};
    depSpec.template.metadata ??= {};
    const own = (depSpec.template.metadata.annotations ?? {}) as Record<string, string>;
    depSpec.template.metadata.annotations = { ...csvAnnotations, ...own, 'olm.targetNamespaces': '' };
    deployments.push({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: d.name, namespace: installNamespace, ...(d.label ? { labels: d.label } : {}) },
      spec: depSpec,
    });
    addSa(saName(depSpec.template.spec?.serviceAccountName));
  }
  const permissions = spec.install?.spec?.permissions ?? [];
  const clusterPermissions = spec.install?.spec?.clusterPermissions ?? [];
  for (const p of [...permissions, ...clusterPermissions]) addSa(saName(p.serviceAccountName));
  // AllNamespaces: namespaced permissions are granted cluster-wide. (v1.2.0 means to add a
  // namespaces get/list/watch rule too, but appends it to a loop copy, so it never appears.)
  const clusterRoles: Obj[] = [];
  const clusterRoleBindings: Obj[] = [];
  for (const p of [...clusterPermissions, ...permissions]) {
    const sa = saName(p.serviceAccountName);
    const name = generateName(`${csvName}-${sa}`, p);
    clusterRoles.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name },
      rules: p.rules ?? [],
    });
    clusterRoleBindings.push({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ kind: 'ServiceAccount', name: sa, namespace: installNamespace }],
    });
  }
  const rest: Obj[] = [];
  for (const o of others) {
    const namespaced = SUPPORTED[o.kind];
    if (namespaced === undefined)
      return {
        error: `bundle contains unsupported resource: Name: ${String(o.metadata.name ?? '')}, Kind: ${o.kind}`,
      };
    const copy = structuredClone(o);
    if (namespaced) copy.metadata = { ...copy.metadata, namespace: installNamespace };
    rest.push(copy);
  }
  const sas = [...serviceAccounts.entries()].filter(([n]) => n !== 'default').map(([, o]) => o);
  return { objects: [...sas, ...clusterRoles, ...clusterRoleBindings, ...rest, ...deployments] };
}
