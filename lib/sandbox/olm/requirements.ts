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

export type Rule = { verbs?: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[]; nonResourceURLs?: string[] };
export type Permission = { serviceAccountName: string; rules?: Rule[] };

/** A policy rule in the field order of rbac/v1 PolicyRule, with the empty lists Go leaves out. */
export function goRule(r: Rule) {
  const some = (a?: string[]) => (a && a.length ? a : undefined);
  return { verbs: r.verbs ?? null, apiGroups: some(r.apiGroups), resources: some(r.resources), resourceNames: some(r.resourceNames), nonResourceURLs: some(r.nonResourceURLs) };
}

/** JSON as Go's encoding/json writes it: HTML-escaped. */
export function goJson(v: unknown): string {
  return JSON.stringify(v).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function minKubeVersionStatus(csvName: string, minKubeVersion: string | undefined, serverGitVersion: string): RequirementStatus[] {
  if (!minKubeVersion) return [];
  const base = { group: 'operators.coreos.com', version: 'v1alpha1', kind: 'ClusterServiceVersion', name: csvName };
  const want = tryParseVersionTolerant(minKubeVersion.replace(/^v/, ''));
  const server = tryParseVersionTolerant(serverGitVersion.replace(/^v/, '').replace(/[-+].*$/, ''));
  if (!want) return [{ ...base, status: 'PresentNotSatisfied', message: 'CSV version parsing error' }];
  if (!server) return [{ ...base, status: 'PresentNotSatisfied', message: 'Server version parsing error' }];
  if (compareVersions(want, server) > 0) return [{ ...base, status: 'PresentNotSatisfied', message: `CSV version requirement not met: minKubeVersion (${minKubeVersion}) > server version (${serverGitVersion.replace(/^v/, '')})` }];
  return [{ ...base, status: 'Present', message: `CSV minKubeVersion (${minKubeVersion}) less than server version (${serverGitVersion})` }];
}

/**
 * One status per service account: NotPresent while the account is missing; otherwise Present
 * with every rule Satisfied when OLM's own roles for it are there (`rolesExist`), else
 * PresentNotSatisfied; granted namespaced rules leave no entry, as in OLM.
 */
export function permissionStatuses(perms: { namespaced: Permission[]; cluster: Permission[] }, saExists: (name: string) => boolean, rolesExist: (p: Permission, cluster: boolean) => boolean): RequirementStatus[] {
  const out = new Map<string, RequirementStatus>();
  for (const [list, scope] of [[perms.namespaced, 'namespaced'], [perms.cluster, 'cluster']] as const) {
    for (const p of list) {
      const status = out.get(p.serviceAccountName) ?? { group: '', version: 'v1', kind: 'ServiceAccount', name: p.serviceAccountName, status: 'Present', dependents: [] };
      if (!saExists(p.serviceAccountName)) {
        out.set(p.serviceAccountName, { ...status, status: 'NotPresent', message: 'Service account does not exist' });
        continue;
      }
      const met = rolesExist(p, scope === 'cluster');
      // OLM's check of rules it created itself ends its loop early, before it records the account
      // (permissionStatus, `permissionsPreviouslyCreated` ... `continue`): a service account whose
      // namespaced rules OLM granted is not listed. Its cluster rules, read another way, are.
      if (met && scope === 'namespaced') continue;
      for (const r of p.rules ?? []) status.dependents!.push({ group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'PolicyRule', status: met ? 'Satisfied' : 'NotSatisfied', message: `${scope} rule:${goJson(goRule(r))}` });
      if (!met) Object.assign(status, { status: 'PresentNotSatisfied', message: 'Policy rule not satisfied for service account' });
      out.set(p.serviceAccountName, status);
    }
  }
  return [...out.values()];
}
