// Kubernetes' and OLM's shared roles: the roles and bindings others hold or feed, which neither a
// move to OLM v1 takes over (v0-ownership.ts) nor an uninstall of a ClusterExtension's installer
// objects deletes (lib/server/olm-v1/install-mark.ts). One rule, so both say the same. Where it
// comes from: Kubernetes' bootstrap policy names its roles system:* and labels them
// kubernetes.io/bootstrapping, and gives admin, edit and view an aggregationRule gathering every
// role labelled rbac.authorization.k8s.io/aggregate-to-<role>; OLM v0.38.0's deploy manifests ship
// aggregate-olm-edit and aggregate-olm-view, and OLM generates per-CRD `<crd>-<version>-admin/edit/
// view` roles labelled aggregate-to-* (olm/operatorgroup.go ensureProvidedAPIClusterRole). A role
// that feeds another changes what everyone holding that one may do, whoever made it. Pure.

export interface RoleFacts {
  kind: string;
  name: string;
  labels?: Record<string, string>;
  /** A ClusterRole with an aggregationRule: its rules are the union of other roles'. */
  aggregated?: boolean;
}

/**
 * Why: `feeds` is the only one a role can have while being one operator's own (a bundle's
 * `<api>-editor-role`, say); the others make it Kubernetes' or OLM's whoever asks.
 */
export type SharedRoleCode = 'system-name' | 'aggregate-name' | 'bootstrapping' | 'aggregation-rule' | 'feeds';

export interface SharedRole {
  code: SharedRoleCode;
  /** In the reader's words, to follow "one of Kubernetes’ or OLM’s shared roles (…)". */
  why: string;
  /** For `feeds`: the aggregate-to-<role> labels, sorted (`aggregate-to-edit`). */
  feeds?: string[];
}

const RBAC_KINDS = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);
const RBAC_LABEL = 'rbac.authorization.k8s.io/';
const AGGREGATE_TO = `${RBAC_LABEL}aggregate-to-`;

/** The aggregate-to-<role> labels set to "true" on an object, sorted: the roles its rules flow into. */
export function feedsInto(labels: Record<string, string> | undefined): string[] {
  return Object.keys(labels ?? {})
    .filter((k) => k.startsWith(AGGREGATE_TO) && labels![k] === 'true')
    .map((k) => k.slice(RBAC_LABEL.length))
    .sort();
}

/** Whether this role or binding is one of Kubernetes' or OLM's shared ones, and why; else undefined. */
export function sharedRole(o: RoleFacts): SharedRole | undefined {
  if (!RBAC_KINDS.has(o.kind)) return undefined;
  if (o.name.startsWith('system:')) return { code: 'system-name', why: 'its name starts with system:' };
  if (o.name.startsWith('aggregate-')) return { code: 'aggregate-name', why: 'its name starts with aggregate-' };
  if (o.labels?.['kubernetes.io/bootstrapping'] !== undefined)
    return { code: 'bootstrapping', why: 'it carries the kubernetes.io/bootstrapping label' };
  if (o.aggregated) return { code: 'aggregation-rule', why: 'it has an aggregationRule, gathering other roles' };
  const feeds = feedsInto(o.labels);
  if (feeds.length) return { code: 'feeds', why: `it feeds other roles (${feeds.join(', ')})`, feeds };
  return undefined;
}

/** The sentence both callers use: what the object is, then why it is shared. */
export const sharedRoleSentence = (what: string, s: SharedRole) =>
  `${what} is one of Kubernetes’ or OLM’s shared roles (${s.why})`;
