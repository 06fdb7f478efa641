// What OLM v0 installed for one CSV, told from the marks OLM v0.38.0 itself puts on the objects,
// and which existing objects a move to OLM v1 may therefore hand to a ClusterExtension. A catalog
// chooses what a bundle contains, and so the names of the objects v1 would render; only the cluster
// says which of them are this operator's. OLM v0 marks what it creates for a CSV by scope
// (docs/olm-v1/migration.md#what-the-move-may-take-over):
// - a namespaced object (Deployment, ServiceAccount, Role, RoleBinding, a bundle's Service,
//   ConfigMap, Secret…) gets a non-blocking ownerReference to the CSV, with the CSV's uid
//   (resolver/rbac.go, catalog/operator.go ExecutePlan, install/deployment.go); OLM's own code does
//   not trust the owner label on namespaced objects (ensureSingletonRBAC), so neither does this;
// - a cluster-scoped object (ClusterRole, ClusterRoleBinding, a bundle's PriorityClass…) gets the
//   three owner labels olm.owner, olm.owner.namespace and olm.owner.kind=ClusterServiceVersion;
// - a CRD gets no mark: the CSV's spec.customresourcedefinitions.owned names its CRDs.
// Kubernetes' and OLM's shared roles are never taken over, whatever marks they carry: taking one
// over writes the bundle's rules into it, and uninstalling the extension deletes it. Pure.
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

const RBAC_KINDS = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);
const AGGREGATE_TO = 'rbac.authorization.k8s.io/aggregate-to-';

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
    l['olm.owner'] === install.csv &&
    l['olm.owner.namespace'] === install.namespace &&
    l['olm.owner.kind'] === 'ClusterServiceVersion'
  );
}

/**
 * Why a role or binding is one of Kubernetes' or OLM's shared ones, or undefined. Kubernetes'
 * bootstrap policy names its roles system:* and labels them kubernetes.io/bootstrapping; admin,
 * edit and view have an aggregationRule gathering every role labelled aggregate-to-<role>; OLM's
 * deploy manifests ship aggregate-olm-edit and aggregate-olm-view, and OLM generates per-CRD
 * `<crd>-<version>-admin/edit/view` roles labelled aggregate-to-*, owned by the CRD (shared by
 * every CSV providing it, left when a CSV goes) rather than by any CSV.
 */
export function sharedRoleReason(o: LiveObject): string | undefined {
  if (!RBAC_KINDS.has(o.kind)) return undefined;
  if (o.name.startsWith('system:')) return 'its name starts with system:';
  if (o.name.startsWith('aggregate-')) return 'its name starts with aggregate-';
  const labels = o.labels ?? {};
  if (labels['kubernetes.io/bootstrapping'] !== undefined) return 'it carries the kubernetes.io/bootstrapping label';
  if (o.aggregated) return 'it has an aggregationRule, gathering other roles';
  const into = Object.keys(labels)
    .filter((k) => k.startsWith(AGGREGATE_TO) && labels[k] === 'true')
    .map((k) => k.slice('rbac.authorization.k8s.io/'.length));
  if (into.length) return `it feeds other roles (${into.sort().join(', ')})`;
  return undefined;
}

/** Why the move may not hand this existing object to OLM v1, or undefined when it may. */
export function adoptionRefusal(o: LiveObject, install: V0Install): AdoptionRefusal | undefined {
  const shared = sharedRoleReason(o);
  if (shared)
    return {
      code: 'shared-role',
      message:
        `${describeObject(o)} is one of Kubernetes’ or OLM’s shared roles (${shared}); ` + 'a move never takes it over',
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
}

/**
 * Just before the adopt step marks a planned object, why it may not after all: replaced since the
 * plan (another uid: whoever made it, it is not what OLM v0 installed), a shared role now, or
 * another Helm release's. The CSV is gone by then and its ownerReferences with it, so the uid the
 * plan saw is what ties the object to OLM v0's install. Undefined when it may be marked.
 */
export function recheckRefusal(
  planned: PlannedObject,
  live: LiveObject & { helmRelease?: { name: string; namespace: string } },
  release: { name: string; namespace: string },
): string | undefined {
  if (!planned.uid || live.uid !== planned.uid)
    return `${describeObject(planned)} was replaced since the plan; the new one is not what OLM v0 installed`;
  const shared = sharedRoleReason(live);
  if (shared)
    return `${describeObject(planned)} is now one of the shared roles (${shared}); a move never takes it over`;
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
