// The rights an OperatorGroup's service account needs to install one bundle (OLM's scoped
// install, doc/design/scoped-operator-install.md): with `spec.serviceAccountName` set, OLM writes
// the InstallPlan's objects — all but the CRDs — and the operator's Deployments with a token of
// that account, so the API server judges each write by the account's RBAC. Two rules follow.
// The account must be allowed each write OLM makes (the CSV, generated Subscriptions of
// dependencies, service accounts, roles and bindings, the bundle's other objects, Deployments).
// And RBAC lets nobody grant rights they do not hold (escalation prevention): to create the
// operator's Roles and ClusterRoles the account must hold every rule in them itself — the CSV's
// `permissions` in the namespace, its `clusterPermissions` cluster-wide.
import type { ClusterServiceVersion, PolicyRule, StrategyPermissions } from '../resources/cluster-service-version';
import { guessResource } from '../resources/common';

/** What is known of the bundle: its CSV and other manifests, or why they are not known. */
export type BundleContent =
  { csv: ClusterServiceVersion; objects: { apiVersion?: string; kind?: string }[] } | { unknown: string };

export interface ScopedRbac {
  /** Role, RoleBinding and, when the bundle needs cluster-wide rights, ClusterRole and ClusterRoleBinding. */
  objects: Record<string, unknown>[];
  /** Why the operator's own rules are missing from the objects, when the bundle is not readable. */
  unknownRules?: string;
  /** The account reaches beyond the namespace (it must hold the operator's cluster-wide rules). */
  clusterWide: boolean;
}

const RBAC = 'rbac.authorization.k8s.io';
const WRITE_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

// Kinds OLM may find among a bundle's manifests that the API server keeps cluster-wide.
const CLUSTER_KINDS = new Set([
  'ClusterRole',
  'ClusterRoleBinding',
  'PriorityClass',
  'ConsoleYAMLSample',
  'ConsoleQuickStart',
  'ConsoleCLIDownload',
  'ConsoleLink',
  'ConsolePlugin',
  'CustomResourceDefinition',
  'APIService',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);

function groupOf(apiVersion: string | undefined): string {
  const v = apiVersion ?? '';
  return v.includes('/') ? v.slice(0, v.indexOf('/')) : '';
}

/** Rules that differ only in their verbs become one; rules already present are dropped. */
function mergeRules(rules: PolicyRule[]): PolicyRule[] {
  const out = new Map<string, PolicyRule>();
  for (const r of rules) {
    const key = JSON.stringify([
      r.apiGroups ?? [],
      [...(r.resources ?? [])].sort(),
      r.resourceNames ?? [],
      r.nonResourceURLs ?? [],
    ]);
    const had = out.get(key);
    if (had) had.verbs = [...new Set([...had.verbs, ...r.verbs])];
    else out.set(key, { ...r, verbs: [...r.verbs] });
  }
  // In the order people write them: what, then which verbs.
  return [...out.values()].map((r) => ({
    ...(r.apiGroups ? { apiGroups: r.apiGroups } : {}),
    ...(r.resources ? { resources: r.resources } : {}),
    ...(r.resourceNames ? { resourceNames: r.resourceNames } : {}),
    ...(r.nonResourceURLs ? { nonResourceURLs: r.nonResourceURLs } : {}),
    verbs: r.verbs,
  }));
}

const rulesOf = (p: StrategyPermissions[] | undefined) => (p ?? []).flatMap((x) => x.rules ?? []);

/** The objects OLM writes as the account, as rules: in the namespace and cluster-wide. */
function writeRules(content: BundleContent): { namespaced: PolicyRule[]; cluster: PolicyRule[] } {
  const namespaced: PolicyRule[] = [
    { apiGroups: ['operators.coreos.com'], resources: ['clusterserviceversions', 'subscriptions'], verbs: WRITE_VERBS },
    { apiGroups: [''], resources: ['serviceaccounts', 'services', 'secrets', 'configmaps'], verbs: WRITE_VERBS },
    { apiGroups: [RBAC], resources: ['roles', 'rolebindings'], verbs: WRITE_VERBS },
    { apiGroups: ['apps'], resources: ['deployments'], verbs: WRITE_VERBS },
  ];
  const cluster: PolicyRule[] = [];
  if ('csv' in content) {
    const install = content.csv.spec.install?.spec;
    if (rulesOf(install?.clusterPermissions).length)
      cluster.push({ apiGroups: [RBAC], resources: ['clusterroles', 'clusterrolebindings'], verbs: WRITE_VERBS });
    for (const o of content.objects) {
      if (!o.kind || o.kind === 'ClusterServiceVersion' || o.kind === 'CustomResourceDefinition') continue;
      const rule = { apiGroups: [groupOf(o.apiVersion)], resources: [guessResource(o.kind)], verbs: WRITE_VERBS };
      (CLUSTER_KINDS.has(o.kind) ? cluster : namespaced).push(rule);
    }
  }
  return { namespaced, cluster };
}

/**
 * The Role, ClusterRole and bindings that let `serviceAccount` of `namespace` install the bundle
 * there, named after the package so that several operators' grants stay apart.
 */
export function scopedInstallRbac(
  namespace: string,
  serviceAccount: string,
  pkg: string,
  content: BundleContent,
  dependencies: readonly BundleContent[] = [],
): ScopedRbac {
  // The dependencies OLM installs in the same plan are written as the same account.
  const contents = [content, ...dependencies];
  const writes = contents.map(writeRules);
  const installs = contents.map((c) => ('csv' in c ? c.csv.spec.install?.spec : undefined));
  const own = installs.flatMap((i) => rulesOf(i?.permissions));
  // A Role cannot carry non-resource URLs; such a rule is held cluster-wide.
  const ownCluster = [
    ...installs.flatMap((i) => rulesOf(i?.clusterPermissions)),
    ...own.filter((r) => r.nonResourceURLs?.length),
  ];
  const namespacedRules = mergeRules([
    ...writes.flatMap((w) => w.namespaced),
    ...own.filter((r) => !r.nonResourceURLs?.length),
  ]);
  const clusterRules = mergeRules([...writes.flatMap((w) => w.cluster), ...ownCluster]);
  const name = `${pkg}-installer`.slice(0, 63);
  const subject = { kind: 'ServiceAccount', name: serviceAccount, namespace };
  const objects: Record<string, unknown>[] = [
    { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace }, rules: namespacedRules },
    {
      apiVersion: `${RBAC}/v1`,
      kind: 'RoleBinding',
      metadata: { name, namespace },
      roleRef: { apiGroup: RBAC, kind: 'Role', name },
      subjects: [subject],
    },
  ];
  if (clusterRules.length) {
    // Cluster-wide objects share one name space: the namespace keeps two installs apart. They
    // come first, so that applied in order the grant is whole once the RoleBinding exists.
    const cname = `${namespace}-${pkg}-installer`.slice(0, 253);
    objects.unshift(
      { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: cname }, rules: clusterRules },
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'ClusterRoleBinding',
        metadata: { name: cname },
        roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: cname },
        subjects: [subject],
      },
    );
  }
  return {
    objects,
    clusterWide: clusterRules.length > 0,
    ...(contents.some((c) => 'unknown' in c)
      ? {
          unknownRules: `the rules the operator${dependencies.length ? ' or its dependencies' : ''} itself asks for are not known here (${contents.flatMap((c) => ('unknown' in c ? [c.unknown] : [])).join('; ')}); the account must hold them too, since OLM grants the operator only what the account holds`,
        }
      : {}),
  };
}

/** A Role (or ClusterRole, cluster-wide) and its binding granting `rules` to the account. */
export function grantRules(
  namespace: string,
  serviceAccount: string,
  name: string,
  rules: PolicyRule[],
  clusterWide: boolean,
): Record<string, unknown>[] {
  const subject = { kind: 'ServiceAccount', name: serviceAccount, namespace };
  const kind = clusterWide ? 'ClusterRole' : 'Role';
  const metadata = clusterWide ? { name } : { name, namespace };
  return [
    { apiVersion: `${RBAC}/v1`, kind, metadata, rules: mergeRules(rules) },
    {
      apiVersion: `${RBAC}/v1`,
      kind: `${kind}Binding`,
      metadata,
      roleRef: { apiGroup: RBAC, kind, name },
      subjects: [subject],
    },
  ];
}
