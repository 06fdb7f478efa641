// The rights a ClusterExtension's ServiceAccount needs for operator-controller v1.2.0 to install
// one bundle and keep watching it (docs/olm-v1/install.md, "The installer's rights"). v1 does not
// impersonate: it asks for a token of spec.serviceAccount and makes every call about the bundle's
// objects with it, so the API server judges each one by that account's RBAC:
// - Helm looks every object up by name before installing, creates it, and later patches it (drift
//   repair, upgrades), updates or deletes it: get/update/patch/delete on each named object, and
//   create on its kind (a create request carries no name for RBAC to match);
// - after the install, one informer per kind lists and watches the extension's objects across the
//   whole cluster by label, so list/watch on every kind, cluster-wide and unnamed;
// - RBAC lets nobody grant what they do not hold (escalation prevention): the account holds every
//   rule of the bundle's ClusterRoles (cluster-wide) and Roles (in the namespace) — `escalate`
//   cannot be narrowed to names for a create — and may `bind` the roles its bindings name that the
//   bundle does not define (bind is checked against the referenced role's name);
// - every object gets a blocking ownerReference to the ClusterExtension, which an API server with
//   OwnerReferencesPermissionEnforcement allows only with update on clusterextensions/finalizers
//   of that extension.
// The rendered objects come from render-bundle.ts; the rights are for that bundle, by name.
import type { PolicyRule } from '../resources/cluster-service-version';
import { guessResource } from '../resources/common';

type Obj = { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } } & Record<
  string,
  unknown
>;
export type KubeObject = Record<string, unknown>;

const RBAC = 'rbac.authorization.k8s.io';
const V1_GROUP = 'olm.operatorframework.io';

// The resource of every kind render-bundle.ts can emit (operator-registry's supported kinds, plus
// Deployments); anything else is the API machinery's guess, as kubectl makes it.
const RESOURCES: Record<string, string> = {
  CustomResourceDefinition: 'customresourcedefinitions',
  ClusterRole: 'clusterroles',
  ClusterRoleBinding: 'clusterrolebindings',
  PriorityClass: 'priorityclasses',
  VerticalPodAutoscaler: 'verticalpodautoscalers',
  ConsoleYAMLSample: 'consoleyamlsamples',
  ConsoleQuickStart: 'consolequickstarts',
  ConsoleCLIDownload: 'consoleclidownloads',
  ConsoleLink: 'consolelinks',
  Service: 'services',
  ServiceAccount: 'serviceaccounts',
  Role: 'roles',
  RoleBinding: 'rolebindings',
  PrometheusRule: 'prometheusrules',
  ServiceMonitor: 'servicemonitors',
  Secret: 'secrets',
  ConfigMap: 'configmaps',
  PodDisruptionBudget: 'poddisruptionbudgets',
  Deployment: 'deployments',
};

const groupOf = (apiVersion: string | undefined) => {
  const v = apiVersion ?? '';
  return v.includes('/') ? v.slice(0, v.indexOf('/')) : '';
};

export interface InstallerRbacInput {
  /** The objects render-bundle.ts made of the bundle (renderBundle(...).objects). */
  manifests: readonly Obj[];
  /** spec.namespace: where the namespaced objects and the ServiceAccount live. */
  namespace: string;
  /** spec.serviceAccount.name. */
  serviceAccount: string;
  /** The ClusterExtension's name (also Helm's release name). */
  extensionName: string;
}

/** Rules that name the same resources and names become one rule with both verbs lists. */
function merge(rules: PolicyRule[]): PolicyRule[] {
  const out = new Map<string, PolicyRule>();
  for (const r of rules) {
    const key = JSON.stringify([r.apiGroups ?? [], r.resources ?? [], r.resourceNames ?? [], r.nonResourceURLs ?? []]);
    const had = out.get(key);
    if (had) had.verbs = [...new Set([...had.verbs, ...r.verbs])];
    else out.set(key, { ...r, verbs: [...r.verbs] });
  }
  return [...out.values()];
}

/** The writes Helm makes as the account for one kind: create unnamed, the rest on these names. */
function writeRules(group: string, resource: string, names: string[]): PolicyRule[] {
  return [
    { apiGroups: [group], resources: [resource], verbs: ['create'] },
    { apiGroups: [group], resources: [resource], resourceNames: names, verbs: ['get', 'update', 'patch', 'delete'] },
  ];
}

/** The bundle's objects grouped by API group and resource, with their names, scope kept apart. */
function byKind(manifests: readonly Obj[]) {
  const kinds = new Map<string, { group: string; resource: string; namespaced: boolean; names: Set<string> }>();
  for (const o of manifests) {
    if (!o.kind) continue;
    const group = groupOf(o.apiVersion);
    const resource = RESOURCES[o.kind] ?? guessResource(o.kind);
    const namespaced = Boolean(o.metadata?.namespace);
    const key = `${group}/${resource}/${namespaced}`;
    const k = kinds.get(key) ?? { group, resource, namespaced, names: new Set<string>() };
    if (o.metadata?.name) k.names.add(o.metadata.name);
    kinds.set(key, k);
  }
  return [...kinds.values()];
}

/** A role of the bundle that a binding of the bundle refers to is held, not bound: see above. */
function bindRules(manifests: readonly Obj[], kind: 'ClusterRoleBinding' | 'RoleBinding'): PolicyRule[] {
  const defined = new Set(
    manifests.filter((o) => o.kind === 'ClusterRole' || o.kind === 'Role').map((o) => `${o.kind}/${o.metadata?.name}`),
  );
  const rules: PolicyRule[] = [];
  for (const b of manifests.filter((o) => o.kind === kind)) {
    const ref = b.roleRef as { kind?: string; name?: string } | undefined;
    if (!ref?.kind || !ref.name || defined.has(`${ref.kind}/${ref.name}`)) continue;
    rules.push({
      apiGroups: [RBAC],
      resources: [ref.kind === 'Role' ? 'roles' : 'clusterroles'],
      resourceNames: [ref.name],
      verbs: ['bind'],
    });
  }
  return rules;
}

const rulesOfKind = (manifests: readonly Obj[], kind: string) =>
  manifests.filter((o) => o.kind === kind).flatMap((o) => (o.rules as PolicyRule[] | undefined) ?? []);

/**
 * The ClusterRole, ClusterRoleBinding, Role and RoleBinding (named `<extension>-installer`) that
 * let the account install exactly these objects. The cluster-wide pair comes first, so that
 * applied in order the grant is whole once the last binding exists.
 */
export function installerRbac(input: InstallerRbacInput): KubeObject[] {
  const { manifests, namespace, serviceAccount, extensionName } = input;
  const kinds = byKind(manifests);
  const cluster: PolicyRule[] = [];
  const local: PolicyRule[] = [];
  // The informers: every kind, cluster-wide, whatever the scope of its objects.
  for (const k of kinds) cluster.push({ apiGroups: [k.group], resources: [k.resource], verbs: ['list', 'watch'] });
  for (const k of kinds) (k.namespaced ? local : cluster).push(...writeRules(k.group, k.resource, [...k.names].sort()));
  cluster.push(...rulesOfKind(manifests, 'ClusterRole'), ...bindRules(manifests, 'ClusterRoleBinding'));
  local.push(...rulesOfKind(manifests, 'Role'), ...bindRules(manifests, 'RoleBinding'));
  cluster.push({
    apiGroups: [V1_GROUP],
    resources: ['clusterextensions/finalizers'],
    resourceNames: [extensionName],
    verbs: ['update'],
  });

  const name = `${extensionName}-installer`;
  const subject = { kind: 'ServiceAccount', name: serviceAccount, namespace };
  const objects: KubeObject[] = [
    { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules: merge(cluster) },
    {
      apiVersion: `${RBAC}/v1`,
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name },
      subjects: [subject],
    },
  ];
  const localRules = merge(local);
  if (localRules.length)
    objects.push(
      { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace }, rules: localRules },
      {
        apiVersion: `${RBAC}/v1`,
        kind: 'RoleBinding',
        metadata: { name, namespace },
        roleRef: { apiGroup: RBAC, kind: 'Role', name },
        subjects: [subject],
      },
    );
  return objects;
}

/**
 * The rules a role must hold after a version change: what it holds and what the new bundle
 * needs, and which of those it lacked. The old rules stay: Helm's upgrade still patches or deletes
 * the previous release's objects, and a later rollback needs them again.
 */
export function widenRules(held: readonly PolicyRule[], needed: readonly PolicyRule[]) {
  const rules = merge([...held, ...needed]);
  const had = merge([...held]);
  const key = (r: PolicyRule) =>
    JSON.stringify([r.apiGroups ?? [], r.resources ?? [], r.resourceNames ?? [], r.nonResourceURLs ?? []]);
  const heldVerbs = new Map(had.map((r) => [key(r), new Set(r.verbs)]));
  const added: PolicyRule[] = [];
  for (const r of merge([...needed])) {
    const verbs = heldVerbs.get(key(r));
    const missing = verbs?.has('*') ? [] : r.verbs.filter((v) => !verbs?.has(v));
    if (missing.length) added.push({ ...r, verbs: missing });
  }
  return { rules, added };
}
