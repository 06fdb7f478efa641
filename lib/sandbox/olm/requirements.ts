// The requirement statuses OLM's olm operator writes on a CSV in Pending (olm/requirements.go):
// minKubeVersion against the server, each owned or required CRD, and each service account of the
// install strategy with its policy rules as dependents. Which objects exist is the caller's to
// say; the shapes and words are OLM's.
import { compareVersions, tryParseVersionTolerant } from '../../olm/semver/version';

export interface RequirementStatus {
  group: string;
  version: string;
  kind: string;
  name: string;
  status: string;
  message?: string;
  uuid?: string;
  dependents?: { group: string; version: string; kind: string; status: string; message: string }[];
}

export type Rule = {
  verbs?: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
};
export type Permission = { serviceAccountName: string; rules?: Rule[] };

/** A policy rule in the field order of rbac/v1 PolicyRule, with the empty lists Go leaves out. */
export function goRule(r: Rule) {
  const some = (a?: string[]) => (a && a.length ? a : undefined);
  return {
    verbs: r.verbs ?? null,
    apiGroups: some(r.apiGroups),
    resources: some(r.resources),
    resourceNames: some(r.resourceNames),
    nonResourceURLs: some(r.nonResourceURLs),
  };
}

/** JSON as Go's encoding/json writes it: HTML-escaped. */
export function goJson(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function minKubeVersionStatus(
  csvName: string,
  minKubeVersion: string | undefined,
  serverGitVersion: string,
): RequirementStatus[] {
  if (!minKubeVersion) return [];
  const base = { group: 'operators.coreos.com', version: 'v1alpha1', kind: 'ClusterServiceVersion', name: csvName };
  const want = tryParseVersionTolerant(minKubeVersion.replace(/^v/, ''));
  const server = tryParseVersionTolerant(serverGitVersion.replace(/^v/, '').replace(/[-+].*$/, ''));
  if (!want) return [{ ...base, status: 'PresentNotSatisfied', message: 'CSV version parsing error' }];
  if (!server) return [{ ...base, status: 'PresentNotSatisfied', message: 'Server version parsing error' }];
  if (compareVersions(want, server) > 0)
    return [
      {
        ...base,
        status: 'PresentNotSatisfied',
        message: `CSV version requirement not met: minKubeVersion (${minKubeVersion}) > server version (${serverGitVersion.replace(/^v/, '')})`,
      },
    ];
  return [
    {
      ...base,
      status: 'Present',
      message: `CSV minKubeVersion (${minKubeVersion}) less than server version (${serverGitVersion})`,
    },
  ];
}

/** What OLM finds of a service account before it looks at rules (permissionStatus). */
export type AccountState = 'missing' | 'ownedByAnother' | 'present';

export interface PermissionChecks {
  account(name: string): AccountState;
  /** The Role (ClusterRole) and binding OLM generates for this permission exist, labelled as this CSV's (permissionsPreviouslyCreated). */
  previouslyCreated(p: Permission, cluster: boolean): boolean;
  /** RBAC grants the account this rule (CSVRuleChecker over every role and binding). */
  ruleSatisfied(account: string, rule: Rule, cluster: boolean): boolean;
}

/**
 * One status per service account, as olm/requirements.go permissionStatus writes them:
 * NotPresent while the account is missing; PresentNotSatisfied while another CSV owns it and
 * this one does not; otherwise its rules, first by the roles OLM made for this CSV, then by RBAC
 * itself.
 */
export function permissionStatuses(
  perms: { namespaced: Permission[]; cluster: Permission[] },
  checks: PermissionChecks,
): RequirementStatus[] {
  const out = new Map<string, RequirementStatus>();
  for (const [list, scope] of [
    [perms.namespaced, 'namespaced'],
    [perms.cluster, 'cluster'],
  ] as const) {
    for (const p of list) {
      const status: RequirementStatus = out.get(p.serviceAccountName) ?? {
        group: '',
        version: 'v1',
        kind: 'ServiceAccount',
        name: p.serviceAccountName,
        status: 'Present',
        dependents: [],
      };
      const state = checks.account(p.serviceAccountName);
      if (state === 'missing') {
        out.set(p.serviceAccountName, { ...status, status: 'NotPresent', message: 'Service account does not exist' });
        continue;
      }
      if (state === 'ownedByAnother') {
        out.set(p.serviceAccountName, {
          ...status,
          status: 'PresentNotSatisfied',
          message: 'Service account is owned by another ClusterServiceVersion',
        });
        continue;
      }
      // The roles OLM made for this CSV: the loop ends early, before it records the account
      // (`permissionsPreviouslyCreated` ... `continue`), so an account whose namespaced rules OLM
      // granted itself is not listed. For cluster rules the binding's label hash is computed with
      // kind Role and never matches a ClusterRoleBinding's: they are always checked the other way.
      if (scope === 'namespaced' && checks.previouslyCreated(p, false)) continue;
      for (const r of p.rules ?? []) {
        const met = checks.ruleSatisfied(p.serviceAccountName, r, scope === 'cluster');
        status.dependents!.push({
          group: 'rbac.authorization.k8s.io',
          version: 'v1',
          kind: 'PolicyRule',
          status: met ? 'Satisfied' : 'NotSatisfied',
          message: `${scope} rule:${goJson(goRule(r))}`,
        });
        if (!met)
          Object.assign(status, {
            status: 'PresentNotSatisfied',
            message: 'Policy rule not satisfied for service account',
          });
      }
      out.set(p.serviceAccountName, status);
    }
  }
  // `dependents` is omitempty in OLM's type; `message` is not (an account whose rules are all met
  // has an empty one), and the CRD requires it.
  return [...out.values()].map(({ dependents, ...s }) => ({
    ...s,
    message: s.message ?? '',
    ...(dependents?.length ? { dependents } : {}),
  }));
}
