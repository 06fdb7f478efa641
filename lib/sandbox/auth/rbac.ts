// RBAC as the API server evaluates it, from the Roles, ClusterRoles and bindings in the store:
// a request is allowed when any rule of any role bound to the user (or one of their groups)
// covers it. A ClusterRole's rules are the ones it holds: an aggregated ClusterRole's are
// written into it by the aggregation controller (cluster-role-aggregation.ts), as
// kube-controller-manager does, never worked out here.
import type { KObject } from '../store/types';

export interface UserInfo {
  name: string;
  groups: string[];
}

export interface RequestAttributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** Non-resource requests (`/version`, `/apis`). */
  path?: string;
}

export interface PolicyRule {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

/** The RBAC objects the authorizer reads; the server gives it the store's current ones. */
export interface RbacSource {
  roles(namespace: string): KObject[];
  roleBindings(namespace: string): KObject[];
  clusterRoles(): KObject[];
  clusterRoleBindings(): KObject[];
}

interface Subject {
  kind: string;
  name: string;
  namespace?: string;
}

/** A service account named without a namespace in a RoleBinding is one of the binding's namespace. */
function subjectMatches(s: Subject, user: UserInfo, bindingNamespace = ''): boolean {
  if (s.kind === 'User') return s.name === user.name;
  if (s.kind === 'Group') return user.groups.includes(s.name);
  if (s.kind === 'ServiceAccount') {
    const ns = s.namespace || bindingNamespace;
    return !!ns && user.name === `system:serviceaccount:${ns}:${s.name}`;
  }
  return false;
}

function rulesOf(obj: KObject | undefined): PolicyRule[] {
  return ((obj?.rules as PolicyRule[] | undefined) ?? []).filter(Boolean);
}

function has(list: readonly string[] | undefined, value: string): boolean {
  return !!list && (list.includes('*') || list.includes(value));
}

export function ruleAllows(rule: PolicyRule, a: RequestAttributes): boolean {
  if (!has(rule.verbs, a.verb)) return false;
  if (a.path !== undefined) {
    return (rule.nonResourceURLs ?? []).some(
      (u) => u === '*' || u === a.path || (u.endsWith('*') && a.path!.startsWith(u.slice(0, -1))),
    );
  }
  if (!has(rule.apiGroups, a.group)) return false;
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const resources = rule.resources ?? [];
  const resOk =
    resources.includes('*') ||
    resources.includes(res) ||
    (a.subresource !== undefined && resources.includes(`*/${a.subresource}`));
  if (!resOk) return false;
  if (rule.resourceNames && rule.resourceNames.length > 0)
    return a.name !== undefined && rule.resourceNames.includes(a.name);
  return true;
}

function describeSubject(s: Subject, bindingNamespace: string): string {
  if (s.kind === 'ServiceAccount') return `ServiceAccount "${s.name}/${s.namespace || bindingNamespace}"`;
  return `${s.kind} "${s.name}"`;
}

/**
 * Calls `visit` with each rule that applies to the user in a namespace (cluster-wide rules
 * first, then the namespace's), and the binding it comes through, worded as the authorizer
 * names it; stops when `visit` answers false. A binding of the user's whose role is not there
 * is reported to `unresolved` (its roleRef), as the API server's rule resolver reports it.
 */
export function visitRules(
  src: RbacSource,
  user: UserInfo,
  namespace: string | undefined,
  visit: (rule: PolicyRule, source: string) => boolean,
  unresolved?: (ref: { kind: string; name: string }) => void,
): void {
  const byName = new Map(src.clusterRoles().map((r) => [r.metadata.name ?? '', r]));
  for (const b of src.clusterRoleBindings()) {
    const subject = ((b.subjects as Subject[] | undefined) ?? []).find((s) => subjectMatches(s, user));
    const ref = b.roleRef as { kind: string; name: string };
    if (!subject) continue;
    const role = ref.kind === 'ClusterRole' ? byName.get(ref.name) : undefined;
    if (!role) {
      unresolved?.(ref);
      continue;
    }
    const source =
      `ClusterRoleBinding "${b.metadata.name ?? ''}" of ClusterRole "${ref.name}" to ` + describeSubject(subject, '');
    for (const rule of rulesOf(role)) if (!visit(rule, source)) return;
  }
  if (!namespace) return;
  const roles = new Map(src.roles(namespace).map((r) => [r.metadata.name ?? '', r]));
  for (const b of src.roleBindings(namespace)) {
    const subject = ((b.subjects as Subject[] | undefined) ?? []).find((s) => subjectMatches(s, user, namespace));
    if (!subject) continue;
    const ref = b.roleRef as { kind: string; name: string };
    const role =
      ref.kind === 'ClusterRole' ? byName.get(ref.name) : ref.kind === 'Role' ? roles.get(ref.name) : undefined;
    if (!role) {
      unresolved?.(ref);
      continue;
    }
    const source =
      `RoleBinding "${b.metadata.name ?? ''}/${namespace}" of ${ref.kind} "${ref.name}" to ` +
      describeSubject(subject, namespace);
    for (const rule of rulesOf(role)) if (!visit(rule, source)) return;
  }
}

/** Every rule that applies to the user in a namespace (cluster-wide rules included). */
export function rulesFor(src: RbacSource, user: UserInfo, namespace: string | undefined): PolicyRule[] {
  const rules: PolicyRule[] = [];
  visitRules(src, user, namespace, (rule) => rules.push(rule) > 0);
  return rules;
}

/**
 * The authorizer's reason for allowing the request ("" for system:masters, allowed before RBAC
 * is asked), or undefined when nothing allows it.
 */
export function allowedBy(src: RbacSource, user: UserInfo, a: RequestAttributes): string | undefined {
  if (user.groups.includes('system:masters')) return '';
  let reason: string | undefined;
  visitRules(src, user, a.namespace, (rule, source) => {
    if (!ruleAllows(rule, a)) return true;
    reason = `RBAC: allowed by ${source}`;
    return false;
  });
  return reason;
}

export function authorize(src: RbacSource, user: UserInfo, a: RequestAttributes): boolean {
  return allowedBy(src, user, a) !== undefined;
}

/** The API server's words for a denial. */
export function forbiddenMessage(user: UserInfo, a: RequestAttributes): string {
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  const subject = a.name ? `${qualified} "${a.name}"` : qualified;
  const what = a.subresource ? `resource "${a.resource}/${a.subresource}"` : `resource "${a.resource}"`;
  const where = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `${subject} is forbidden: User "${user.name}" cannot ${a.verb} ${what} in API group "${a.group}" ${where}`;
}
