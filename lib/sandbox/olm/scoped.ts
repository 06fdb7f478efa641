// An OperatorGroup that names a service account (`spec.serviceAccountName`) scopes what OLM
// installs to that account's rights (OLM's pkg/lib/scoped): the catalog operator runs an
// InstallPlan's steps with a token of the account, and the olm operator installs the CSV's
// deployments with it. This file is OLM's side (which account a namespace's group names, in
// OLM's words when it cannot say) and the API server's side of a request made with that token
// (RBAC, and RBAC's refusal to let anyone grant rights it does not hold), in kube-apiserver's words.
import { checkRbacWrite, type RbacKind } from '../auth/escalation';
import {
  authorize,
  forbiddenMessage,
  ruleAllows,
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

/**
 * The API server's escalation check on a Role, ClusterRole or binding written with the token
 * (auth/escalation.ts, the same check every client's write goes through): refused unless the
 * account holds every rule granted, or may `escalate` / `bind`. `old` is the object an update
 * replaces.
 */
export function checkNoEscalation(rbac: RbacSource, user: UserInfo, obj: KObject, kind: RbacKind, old?: KObject): void {
  checkRbacWrite(rbac, user, { kind, object: obj, old });
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
