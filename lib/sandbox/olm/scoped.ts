// An OperatorGroup that names a service account (`spec.serviceAccountName`) scopes what OLM
// installs to that account's rights (OLM's pkg/lib/scoped): the catalog operator runs an
// InstallPlan's steps with a token of the account, and the olm operator installs the CSV's
// deployments with it. This file is OLM's side (which account a namespace's group names, in
// OLM's words when it cannot say) and the API server's side of a request made with that token
// (RBAC, and RBAC's refusal to let anyone grant rights it does not hold), in kube-apiserver's words.
import {
  authorize,
  forbiddenMessage,
  ruleAllows,
  rulesFor,
  type PolicyRule,
  type RbacSource,
  type RequestAttributes,
  type UserInfo,
} from '../auth/rbac';
import { ApiStatusError } from '../server/http-util';
import type { KObject } from '../store/types';

export interface ServiceAccountRef {
  apiVersion: 'v1';
  kind: 'ServiceAccount';
  name: string;
  namespace: string;
  resourceVersion?: string;
  uid?: string;
}

/** The reference OLM's syncer writes into an OperatorGroup's status (reference.GetReference). */
export function serviceAccountRef(sa: KObject): ServiceAccountRef {
  return {
    apiVersion: 'v1',
    kind: 'ServiceAccount',
    name: sa.metadata.name ?? '',
    namespace: sa.metadata.namespace ?? '',
    resourceVersion: sa.metadata.resourceVersion,
    uid: sa.metadata.uid,
  };
}

/**
 * queryServiceAccountFromNamespace: the account the namespace's one managing OperatorGroup names
 * (`undefined` when it names none), or the error OLM reports on the InstallPlan.
 */
export function namespaceServiceAccount(groups: readonly KObject[]): { ref?: ServiceAccountRef; error?: string } {
  if (groups.length === 0) return { error: 'no operator group found that is managing this namespace' };
  // A group that selects no namespace yet (its status not written) manages nothing.
  const managing = groups.filter(
    (g) => ((g.status as { namespaces?: string[] } | undefined)?.namespaces ?? []).length > 0,
  );
  if (managing.length === 0) return { error: 'no operator group found that is managing this namespace' };
  if (managing.length > 1)
    return { error: `more than one operator group(s) are managing this namespace count=${managing.length}` };
  const og = managing[0]!;
  const name = (og.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName;
  if (!name) return {};
  const ref = (og.status as { serviceAccountRef?: ServiceAccountRef } | undefined)?.serviceAccountRef;
  if (!ref)
    return {
      error: `please make sure the service account exists. sa=${name} operatorgroup=${og.metadata.namespace}/${og.metadata.name}`,
    };
  return { ref };
}

/** Who a token of the account is to the API server. */
export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return {
    name: `system:serviceaccount:${namespace}:${name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
  };
}

/** Refused with the API server's 403 when RBAC does not allow the request. */
export function checkAccess(rbac: RbacSource, user: UserInfo, attrs: RequestAttributes): void {
  if (!authorize(rbac, user, attrs)) throw new ApiStatusError(403, 'Forbidden', forbiddenMessage(user, attrs));
}

/** One rule per verb, group, resource and name (or URL), as rbac's BreakdownRule splits them. */
function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const verb of rule.verbs ?? []) {
    for (const group of rule.apiGroups ?? []) {
      for (const resource of rule.resources ?? []) {
        if (rule.resourceNames?.length)
          for (const n of rule.resourceNames)
            out.push({ apiGroups: [group], resources: [resource], resourceNames: [n], verbs: [verb] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
    for (const url of rule.nonResourceURLs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

/** Whether an owner rule covers a broken-down rule (rbac's ruleCovers, wildcards included). */
function covers(owner: PolicyRule, r: PolicyRule): boolean {
  const has = (list: string[] | undefined, v: string) => !!list && (list.includes('*') || list.includes(v));
  if (!has(owner.verbs, r.verbs![0]!)) return false;
  if (r.nonResourceURLs)
    return (owner.nonResourceURLs ?? []).some(
      (u) =>
        u === '*' ||
        u === r.nonResourceURLs![0] ||
        (u.endsWith('*') && r.nonResourceURLs![0]!.startsWith(u.slice(0, -1))),
    );
  if (!has(owner.apiGroups, r.apiGroups![0]!)) return false;
  const res = r.resources![0]!;
  const resOk = (owner.resources ?? []).some(
    (x) =>
      x === '*' ||
      x === res ||
      (x.endsWith('/*') && res.startsWith(x.slice(0, -1))) ||
      (x.startsWith('*/') && res.endsWith(x.slice(1))),
  );
  if (!resOk) return false;
  if (!owner.resourceNames?.length) return true;
  return !!r.resourceNames?.length && owner.resourceNames.includes(r.resourceNames[0]!);
}

const q = (list: string[]) => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

/** rbacv1helpers.CompactString. */
function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups?.length) parts.push(`APIGroups:${q(r.apiGroups)}`);
  if (r.resources?.length) parts.push(`Resources:${q(r.resources)}`);
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${q(r.nonResourceURLs)}`);
  if (r.resourceNames?.length) parts.push(`ResourceNames:${q(r.resourceNames)}`);
  if (r.verbs?.length) parts.push(`Verbs:${q(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/**
 * RBAC's escalation check for a Role or ClusterRole the user writes, or for the role a binding
 * grants: refused unless the user holds every rule itself, or may `escalate` (roles) / `bind`
 * (bindings) (registry/rbac/*\/policybased, ConfirmNoEscalation).
 */
export function checkNoEscalation(
  rbac: RbacSource,
  user: UserInfo,
  obj: KObject,
  kind: 'Role' | 'ClusterRole' | 'RoleBinding' | 'ClusterRoleBinding',
): void {
  const ns = kind === 'Role' || kind === 'RoleBinding' ? obj.metadata.namespace : undefined;
  const name = obj.metadata.name ?? '';
  const resource = `${kind.toLowerCase()}s`;
  let rules: PolicyRule[];
  if (kind === 'Role' || kind === 'ClusterRole') {
    if (authorize(rbac, user, { verb: 'escalate', group: 'rbac.authorization.k8s.io', resource, namespace: ns, name }))
      return;
    rules = (obj.rules as PolicyRule[] | undefined) ?? [];
  } else {
    const ref = obj.roleRef as { kind: string; name: string };
    if (
      authorize(rbac, user, {
        verb: 'bind',
        group: 'rbac.authorization.k8s.io',
        resource: ref.kind === 'Role' ? 'roles' : 'clusterroles',
        namespace: ref.kind === 'Role' ? ns : undefined,
        name: ref.name,
      })
    )
      return;
    const role =
      ref.kind === 'Role'
        ? rbac.roles(ns ?? '').find((r) => r.metadata.name === ref.name)
        : rbac.clusterRoles().find((r) => r.metadata.name === ref.name);
    rules = (role?.rules as PolicyRule[] | undefined) ?? [];
  }
  if (user.groups.includes('system:masters')) return;
  const held = rulesFor(rbac, user, ns);
  const missing = rules.flatMap(breakdown).filter((r) => !held.some((h) => covers(h, r)));
  if (missing.length === 0) return;
  // CompactRules: rules that differ only in their verbs become one.
  const compact = new Map<string, PolicyRule>();
  for (const r of missing) {
    const key = JSON.stringify([r.apiGroups, r.resources, r.resourceNames, r.nonResourceURLs]);
    const have = compact.get(key);
    if (have) have.verbs = [...new Set([...have.verbs!, ...r.verbs!])];
    else compact.set(key, { ...r, verbs: [...r.verbs!] });
  }
  const descriptions = [...new Set([...compact.values()].map(compactString))].sort();
  const groups = `[${user.groups.map((g) => JSON.stringify(g)).join(' ')}]`;
  throw new ApiStatusError(
    403,
    'Forbidden',
    `${resource}.rbac.authorization.k8s.io "${name}" is forbidden: user "${user.name}" (groups=${groups}) is attempting to grant RBAC permissions not currently held:\n${descriptions.join('\n')}`,
  );
}

/**
 * CSVRuleChecker.RuleSatisfied: RBAC allows the user every request the rule describes (one per
 * verb, group, resource, name or URL; toAttributesSet). `held` is what rulesFor gives the user
 * there, read once by the caller for all its rules.
 */
export function ruleGranted(held: readonly PolicyRule[], namespace: string | undefined, rule: PolicyRule): boolean {
  const some = (a?: string[]) => (a && a.length ? a : ['']);
  for (const verb of rule.verbs ?? []) {
    for (const group of some(rule.apiGroups)) {
      for (const resource of some(rule.resources)) {
        for (const name of some(rule.resourceNames)) {
          for (const path of some(rule.nonResourceURLs)) {
            const attrs: RequestAttributes = path
              ? { verb, group, resource, namespace, path }
              : { verb, group, resource, namespace, ...(name ? { name } : {}) };
            if (!held.some((r) => ruleAllows(r, attrs))) return false;
          }
        }
      }
    }
  }
  return true;
}
