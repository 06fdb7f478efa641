// RBAC's refusal to let anyone grant what they do not hold, as kube-apiserver's RBAC storage
// applies it to every create and update (patch included) of a Role, ClusterRole, RoleBinding or
// ClusterRoleBinding, whoever writes: a person, the console, or OLM with an OperatorGroup's
// service account (pkg/registry/rbac/*/policybased, escalation_check.go, validation/rule.go).
//   - system:masters may write anything;
//   - a Role or ClusterRole: allowed with `escalate` on it (asked with the URL's name, so none
//     on a create), else only if the writer holds every rule it grants, in the request's
//     namespace; an aggregationRule, set or taken away, takes cluster-admin;
//   - a binding: allowed with `bind` on its roleRef (in the binding's namespace), else only if
//     the writer holds every rule of the role it names, which must exist;
//   - an update that touches only what the garbage collector writes (owner references,
//     finalizers) is not judged.
import { ApiStatusError } from '../server/http-util';
import type { KObject } from '../store/types';
import { authorize, visitRules, type PolicyRule, type RbacSource, type UserInfo } from './rbac';
import { describeMissing, quotedList, uncoveredRules } from './rule-covers';

const RBAC_GROUP = 'rbac.authorization.k8s.io';

export type RbacKind = 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding';
export const RBAC_KINDS: ReadonlySet<string> = new Set<RbacKind>([
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
]);

const resourceOf = (kind: RbacKind) => `${kind.toLowerCase()}s`;

/** What a ClusterRole's aggregationRule takes: everything. */
const FULL_AUTHORITY: PolicyRule[] = [
  { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
  { nonResourceURLs: ['*'], verbs: ['*'] },
];

/**
 * ConfirmNoEscalation: undefined when the user holds every rule in the namespace (cluster-wide
 * rules only when there is none), else the API server's sentence listing what is missing, and
 * the bindings of the user's whose roles could not be read.
 */
export function escalationError(
  rbac: RbacSource,
  user: UserInfo,
  kind: RbacKind,
  namespace: string | undefined,
  rules: readonly PolicyRule[],
): string | undefined {
  const held: PolicyRule[] = [];
  const unresolved: string[] = [];
  visitRules(
    rbac,
    user,
    namespace,
    (rule) => held.push(rule) > 0,
    (ref) => unresolved.push(roleNotFound(kind, ref).message),
  );
  const missing = uncoveredRules(held, rules);
  if (missing.length === 0) return undefined;
  const msg =
    `user "${user.name}" (groups=${quotedList(user.groups)}) is attempting to grant RBAC permissions not currently ` +
    `held:\n${describeMissing(missing)}`;
  if (unresolved.length === 0) return msg;
  // The resolver's errors, one aggregate in a list: "[e]", or "[[e1, e2]]" for several.
  const distinct = [...new Set(unresolved)];
  const aggregate = distinct.length === 1 ? distinct[0] : `[${distinct.join(', ')}]`;
  return `${msg}; resolution errors: [${aggregate}]`;
}

function forbidden(kind: RbacKind, name: string, why: string): ApiStatusError {
  const resource = resourceOf(kind);
  return new ApiStatusError(403, 'Forbidden', `${resource}.${RBAC_GROUP} "${name}" is forbidden: ${why}`, {
    name,
    group: RBAC_GROUP,
    kind: resource,
  });
}

/** Go's semantic equality of decoded objects: an absent field equals its zero value. */
function withoutZeroValues(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? v.map(withoutZeroValues) : undefined;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v)
      .map(([k, x]) => [k, withoutZeroValues(x)] as const)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return entries.length ? Object.fromEntries(entries) : undefined;
  }
  return v === '' || v === 0 || v === false || v === null ? undefined : v;
}

/** IsOnlyMutatingGCFields: the update differs from the stored object in GC's fields at most. */
function onlyGcFields(object: KObject, old: KObject): boolean {
  const copy = structuredClone(object);
  const gcFields = ['ownerReferences', 'finalizers', 'selfLink', 'managedFields'] as const;
  for (const f of gcFields) {
    const was = (old.metadata as Record<string, unknown>)[f];
    if (was === undefined) delete (copy.metadata as Record<string, unknown>)[f];
    else (copy.metadata as Record<string, unknown>)[f] = was;
  }
  return JSON.stringify(withoutZeroValues(copy)) === JSON.stringify(withoutZeroValues(old));
}

const hasAggregation = (o: KObject | undefined) =>
  ((o?.aggregationRule as { clusterRoleSelectors?: unknown[] } | undefined)?.clusterRoleSelectors?.length ?? 0) > 0;

/**
 * The API server's error for a role it cannot read while judging a write: its registry names the
 * resource of the request being judged, not the role's (`rolebindings... "admin-typo" not found`).
 */
function roleNotFound(writing: RbacKind, ref: { kind?: string; name?: string }): ApiStatusError {
  if (ref.kind !== 'Role' && ref.kind !== 'ClusterRole')
    return new ApiStatusError(
      500,
      'InternalError',
      `unsupported role reference kind: ${JSON.stringify(ref.kind ?? '')}`,
    );
  const name = ref.name ?? '';
  const resource = resourceOf(writing);
  return new ApiStatusError(404, 'NotFound', `${resource}.${RBAC_GROUP} "${name}" not found`, {
    name,
    group: RBAC_GROUP,
    kind: resource,
  });
}

/** The rules of the role a binding names, as the API server reads them, or its error. */
function roleRefRules(
  rbac: RbacSource,
  writing: RbacKind,
  ref: { kind?: string; name?: string },
  namespace?: string,
): PolicyRule[] {
  const name = ref.name ?? '';
  const role =
    ref.kind === 'Role'
      ? rbac.roles(namespace ?? '').find((r) => r.metadata.name === name)
      : ref.kind === 'ClusterRole'
        ? rbac.clusterRoles().find((r) => r.metadata.name === name)
        : undefined;
  if (!role) throw roleNotFound(writing, ref);
  return ((role.rules as PolicyRule[] | undefined) ?? []).filter(Boolean);
}

export interface RbacWrite {
  kind: RbacKind;
  /** The object as written (its namespace is the request's). */
  object: KObject;
  /** The stored object an update replaces; undefined on a create. */
  old?: KObject;
}

/** Throws the API server's refusal when the write would grant more than the user holds. */
export function checkRbacWrite(rbac: RbacSource, user: UserInfo, { kind, object, old }: RbacWrite): void {
  if (user.groups.includes('system:masters')) return;
  const namespace = kind === 'Role' || kind === 'RoleBinding' ? object.metadata.namespace : undefined;
  const name = object.metadata.name ?? '';
  if (kind === 'Role' || kind === 'ClusterRole') {
    const escalate = authorize(rbac, user, {
      verb: 'escalate',
      group: RBAC_GROUP,
      resource: resourceOf(kind),
      namespace,
      // The request's name: a create's URL has none.
      ...(old ? { name } : {}),
    });
    if (escalate) return;
    if (old && onlyGcFields(object, old)) return;
    const why = escalationError(rbac, user, kind, namespace, (object.rules as PolicyRule[] | undefined) ?? []);
    if (why) throw forbidden(kind, name, why);
    if (kind === 'ClusterRole' && (hasAggregation(object) || hasAggregation(old))) {
      if (escalationError(rbac, user, kind, undefined, FULL_AUTHORITY))
        throw forbidden(kind, name, 'must have cluster-admin privileges to use the aggregationRule');
    }
    return;
  }
  if (old && onlyGcFields(object, old)) return;
  const ref = (object.roleRef ?? {}) as { apiGroup?: string; kind?: string; name?: string };
  if (ref.kind === 'Role' || ref.kind === 'ClusterRole') {
    const bind = authorize(rbac, user, {
      verb: 'bind',
      group: ref.apiGroup ?? '',
      resource: ref.kind === 'Role' ? 'roles' : 'clusterroles',
      namespace,
      name: ref.name ?? '',
    });
    if (bind) return;
  }
  const why = escalationError(rbac, user, kind, namespace, roleRefRules(rbac, kind, ref, namespace));
  if (why) throw forbidden(kind, name, why);
}
