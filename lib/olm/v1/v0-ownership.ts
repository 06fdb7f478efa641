// What OLM v0 installed for one CSV, told from the marks OLM v0.38.0 itself puts on the objects,
// and which existing objects a move to OLM v1 may therefore hand to a ClusterExtension. A catalog
// chooses what a bundle contains, and so the names of the objects v1 would render; only the cluster
// says which of them are this operator's. OLM v0 marks what it creates for a CSV by scope
// (docs/olm-v1/migration.md#what-the-move-may-take-over):
// - a namespaced object (Deployment, ServiceAccount, Role, RoleBinding, a bundle's Service,
//   ConfigMap, Secret…) gets a non-blocking ownerReference to the CSV, with the CSV's uid
//   (resolver/rbac.go, catalog/operator.go ExecutePlan, install/deployment.go); OLM's own code does
//   not trust the owner label on namespaced objects (ensureSingletonRBAC), so neither does this;
// - a cluster-scoped object (the ClusterRoles and bindings of the CSV's clusterPermissions, a
//   bundle's PriorityClass…) gets the three owner labels olm.owner, olm.owner.namespace and
//   olm.owner.kind=ClusterServiceVersion;
// - a ClusterRole or ClusterRoleBinding among the bundle's own manifests gets none of that:
//   ExecutePlan's own case for those kinds adds only olm.managed, and olm.owner=<csv> alone when the
//   step finds the role there already (step_ensurer.go EnsureClusterRole; seen on the real cluster
//   for a role the plan had just created). What shows that this install wrote it is the
//   InstallPlan: a step resolving the CSV that names the object, which only OLM and those who may
//   write InstallPlans' status can put there;
// - a CRD gets no mark: the CSV's spec.customresourcedefinitions.owned names its CRDs.
// Kubernetes' and OLM's shared roles (shared-roles.ts) are never taken over, whatever marks they
// carry: taking one over writes the bundle's rules into it, and uninstalling the extension deletes
// it. One kind of role feeding others may be: the bundle's own (an `<api>-editor-role` labelled
// aggregate-to-edit), written by this install's InstallPlan, owned by nothing, with the very rules
// the bundle renders, so that the move changes nothing `edit` grants. Pure.
import { sharedRole, sharedRoleSentence, type SharedRole } from './shared-roles';

export interface OwnerRef {
  apiVersion?: string;
  kind: string;
  name: string;
  uid: string;
}

/** The live object as the cluster shows it: what OLM's marks and the shared-role rules read. */
export interface LiveObject {
  kind: string;
  name: string;
  /** Absent for a cluster-scoped object. */
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  ownerReferences?: OwnerRef[];
  /** A ClusterRole with an aggregationRule: its rules are the union of other roles'. */
  aggregated?: boolean;
  /** A role's rules as the cluster shows them. */
  rules?: PolicyRule[];
  /** The rules the bundle v1 would install gives it. */
  renderedRules?: PolicyRule[];
  /** The step of an InstallPlan naming the live CSV that wrote this object, and the CSV it resolved. */
  v0Step?: { installPlan: string; resolving: string };
}

export interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** The live CSV whose install is being moved. */
export interface V0Install {
  csv: string;
  namespace: string;
  uid: string;
  /** spec.customresourcedefinitions.owned[].name of the live CSV. */
  ownedCrds: string[];
}

export type AdoptionRefusalCode = 'shared-role' | 'not-installed-by-v0';

export interface AdoptionRefusal {
  code: AdoptionRefusalCode;
  message: string;
}

/** The kinds a bundle may ship that the catalog operator writes with olm.managed and no owner mark. */
const BUNDLE_CLUSTER_RBAC = new Set(['ClusterRole', 'ClusterRoleBinding']);

/** The object as a person reads it in a message: kind, then namespace/name. */
export const describeObject = (o: { kind: string; name: string; namespace?: string }) =>
  `${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;

/** Whether OLM v0 created this object for the CSV, by the mark OLM puts on objects of its scope. */
export function installedByV0(o: LiveObject, install: V0Install): boolean {
  if (o.kind === 'CustomResourceDefinition') return install.ownedCrds.includes(o.name);
  if (o.namespace !== undefined)
    return (
      o.namespace === install.namespace &&
      (o.ownerReferences ?? []).some(
        (r) => r.kind === 'ClusterServiceVersion' && r.name === install.csv && !!r.uid && r.uid === install.uid,
      )
    );
  const l = o.labels ?? {};
  return (
    (l['olm.owner'] === install.csv &&
      l['olm.owner.namespace'] === install.namespace &&
      l['olm.owner.kind'] === 'ClusterServiceVersion') ||
    writtenByPlan(o, install)
  );
}

/**
 * A bundle's own ClusterRole or ClusterRoleBinding, as the catalog operator leaves it: written by a
 * step resolving the live CSV, labelled olm.managed, owned by nothing, and olm.owner, if set,
 * naming the live CSV (another CSV's there means another install rewrote it since).
 */
function writtenByPlan(o: LiveObject, install: V0Install): boolean {
  const l = o.labels ?? {};
  return (
    BUNDLE_CLUSTER_RBAC.has(o.kind) &&
    o.v0Step?.resolving === install.csv &&
    l['olm.managed'] === 'true' &&
    (l['olm.owner'] === undefined || l['olm.owner'] === install.csv) &&
    !o.ownerReferences?.length
  );
}

/**
 * Why the move may not take over this role, though the only thing shared about it is that it feeds
 * other roles, or undefined when it may: the bundle's own, written for the live CSV, with exactly
 * the rules v1 would give it. The per-CRD roles OLM generates are owned by their CRD and refused.
 */
function ownFeedingRoleRefusal(o: LiveObject, install: V0Install, shared: SharedRole): string | undefined {
  const head = sharedRoleSentence(describeObject(o), shared);
  const owner = o.ownerReferences?.[0];
  if (owner) return `${head}, owned by ${owner.kind} ${owner.name}; a move never takes it over`;
  if (o.kind !== 'ClusterRole' || !writtenByPlan(o, install))
    return (
      `${head}; a move takes over such a role only when an InstallPlan shows OLM v0 wrote it for ` +
      `${install.csv}, and none does`
    );
  if (!sameRules(o.rules, o.renderedRules))
    return (
      `${head}, and the bundle OLM v1 would install gives it other rules than it has: the move would ` +
      `change what the ${(shared.feeds ?? []).map((f) => f.slice('aggregate-to-'.length)).join(', ')} ` +
      'roles grant'
    );
  return undefined;
}

const ruleKey = (r: PolicyRule) =>
  JSON.stringify(
    (['apiGroups', 'resources', 'verbs', 'resourceNames', 'nonResourceURLs'] as const).map((k) =>
      [...(r[k] ?? [])].sort(),
    ),
  );

/** Whether two lists of rules grant the same: the same rules, in any order. */
export function sameRules(a: PolicyRule[] | undefined, b: PolicyRule[] | undefined): boolean {
  if (!a || !b) return false;
  const ka = a.map(ruleKey).sort();
  const kb = b.map(ruleKey).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}

/** Why the move may not hand this existing object to OLM v1, or undefined when it may. */
export function adoptionRefusal(o: LiveObject, install: V0Install): AdoptionRefusal | undefined {
  const shared = sharedRole(o);
  if (shared?.code === 'feeds') {
    const why = ownFeedingRoleRefusal(o, install, shared);
    return why ? { code: 'shared-role', message: why } : undefined;
  }
  if (shared)
    return {
      code: 'shared-role',
      message: `${sharedRoleSentence(describeObject(o), shared)}; a move never takes it over`,
    };
  if (!installedByV0(o, install))
    return {
      code: 'not-installed-by-v0',
      message: `${describeObject(o)} exists and OLM v0 did not install it for ${install.csv}`,
    };
  return undefined;
}

/** An object as the plan saw it: the adopt step marks only that very object (its uid). */
export interface PlannedObject {
  kind: string;
  name: string;
  namespace?: string;
  uid?: string;
  /** The rules of a role feeding others that the plan took as the bundle's own, as they were then. */
  rules?: PolicyRule[];
}

/**
 * Just before the adopt step marks a planned object, why it may not after all: replaced since the
 * plan (another uid: whoever made it, it is not what OLM v0 installed), a shared role now, or
 * another Helm release's. A role the plan took as the bundle's own though it feeds others must
 * still be owned by nothing and have the rules the plan saw (the bundle's). The CSV is gone by then
 * and its ownerReferences with it, so the uid the plan saw is what ties the object to OLM v0's
 * install. Undefined when it may be marked.
 */
export function recheckRefusal(
  planned: PlannedObject,
  live: LiveObject & { helmRelease?: { name: string; namespace: string } },
  release: { name: string; namespace: string },
): string | undefined {
  if (!planned.uid || live.uid !== planned.uid)
    return `${describeObject(planned)} was replaced since the plan; the new one is not what OLM v0 installed`;
  const shared = sharedRole(live);
  const stillOwn =
    shared?.code === 'feeds' &&
    !!planned.rules &&
    !live.ownerReferences?.length &&
    sameRules(live.rules, planned.rules);
  if (shared && !stillOwn)
    return `${sharedRoleSentence(describeObject(planned), shared)} now; a move never takes it over`;
  if (live.helmRelease && (live.helmRelease.name !== release.name || live.helmRelease.namespace !== release.namespace))
    return (
      `${describeObject(planned)} now belongs to the Helm release ` +
      `${live.helmRelease.namespace}/${live.helmRelease.name}`
    );
  return undefined;
}

/** An object the plan said v1 would create that exists by the time of the move. */
export const appearedRefusal = (o: PlannedObject, csv: string) =>
  `${describeObject(o)} appeared since the plan, and OLM v0 did not install it for ${csv}`;
