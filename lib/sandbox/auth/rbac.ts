// RBAC as the API server evaluates it, from the Roles, ClusterRoles and bindings in the store:
// a request is allowed when any rule of any role bound to the user (or one of their groups)
// covers it. Aggregated ClusterRoles take the rules of every ClusterRole their selectors match.
import type { KObject } from '../store/types';
import { matchesLabelSelector } from '../../olm/resources/label-selector';
import type { LabelSelector } from '../../olm/resources/common';

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

function subjectMatches(s: Subject, user: UserInfo): boolean {
  if (s.kind === 'User') return s.name === user.name;
  if (s.kind === 'Group') return user.groups.includes(s.name);
  if (s.kind === 'ServiceAccount') return user.name === `system:serviceaccount:${s.namespace ?? ''}:${s.name}`;
  return false;
}

function rulesOf(obj: KObject | undefined): PolicyRule[] {
  return ((obj?.rules as PolicyRule[] | undefined) ?? []).filter(Boolean);
}

/** A ClusterRole's rules, including those aggregated from the ClusterRoles its selectors match. */
export function clusterRoleRules(role: KObject, all: readonly KObject[], seen = new Set<string>()): PolicyRule[] {
  const name = role.metadata.name ?? '';
  if (seen.has(name)) return [];
  seen.add(name);
  const rules = [...rulesOf(role)];
  const selectors =
    (role.aggregationRule as { clusterRoleSelectors?: LabelSelector[] } | undefined)?.clusterRoleSelectors ?? [];
  for (const sel of selectors) {
    for (const other of all) {
      if (other.metadata.name !== name && matchesLabelSelector(sel, other.metadata.labels))
        rules.push(...clusterRoleRules(other, all, seen));
    }
  }
  return rules;
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

/** Every rule that applies to the user in a namespace (cluster-wide rules included). */
export function rulesFor(src: RbacSource, user: UserInfo, namespace: string | undefined): PolicyRule[] {
  const clusterRoles = src.clusterRoles();
  const byName = new Map(clusterRoles.map((r) => [r.metadata.name ?? '', r]));
  const rules: PolicyRule[] = [];
  for (const b of src.clusterRoleBindings()) {
    const subjects = (b.subjects as Subject[] | undefined) ?? [];
    if (!subjects.some((s) => subjectMatches(s, user))) continue;
    const ref = b.roleRef as { kind: string; name: string };
    const role = byName.get(ref.name);
    if (role) rules.push(...clusterRoleRules(role, clusterRoles));
  }
  if (namespace) {
    const roles = new Map(src.roles(namespace).map((r) => [r.metadata.name ?? '', r]));
    for (const b of src.roleBindings(namespace)) {
      const subjects = (b.subjects as Subject[] | undefined) ?? [];
      if (!subjects.some((s) => subjectMatches(s, user))) continue;
      const ref = b.roleRef as { kind: string; name: string };
      if (ref.kind === 'ClusterRole') {
        const role = byName.get(ref.name);
        if (role) rules.push(...clusterRoleRules(role, clusterRoles));
      } else rules.push(...rulesOf(roles.get(ref.name)));
    }
  }
  return rules;
}

export function authorize(src: RbacSource, user: UserInfo, a: RequestAttributes): boolean {
  if (user.groups.includes('system:masters')) return true;
  return rulesFor(src, user, a.namespace).some((r) => ruleAllows(r, a));
}

/** The API server's words for a denial. */
export function forbiddenMessage(user: UserInfo, a: RequestAttributes): string {
  const qualified = a.group ? `${a.resource}.${a.group}` : a.resource;
  const subject = a.name ? `${qualified} "${a.name}"` : qualified;
  const what = a.subresource ? `resource "${a.resource}/${a.subresource}"` : `resource "${a.resource}"`;
  const where = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return `${subject} is forbidden: User "${user.name}" cannot ${a.verb} ${what} in API group "${a.group}" ${where}`;
}
