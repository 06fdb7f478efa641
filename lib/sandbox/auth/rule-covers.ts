// Whether one set of RBAC rules holds another, and how the API server words what it does not:
// the comparison kube-apiserver's escalation check makes (component-helpers' Covers, and
// CompactRules and CompactString of pkg/registry/rbac) before it lets someone write a Role or
// bind one. It is stricter than the authorizer's matching: a wildcard granted must be held as
// a wildcard ("*" is covered only by "*"), and a rule without resourceNames only by another
// without them. Pure; the sandbox's people and OLM's service accounts go through it alike.
import type { PolicyRule } from './rbac';

/** One rule per group, resource, verb and name (or per URL and verb), in Kubernetes' order. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames)
            out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        } else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  // Non-resource URLs combine with verbs only.
  for (const url of rule.nonResourceURLs ?? []) {
    for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
  }
  return out;
}

const has = (set: readonly string[] | undefined, v: string) => (set ?? []).includes(v);
const hasAll = (set: readonly string[] | undefined, want: readonly string[] | undefined) =>
  (want ?? []).every((v) => has(set, v));

/** A resource ("pods/log") is held by "*", by itself, or by "*\/log"; nothing else widens it. */
function resourcesCovered(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (has(owner, '*') || hasAll(owner, wanted)) return true;
  return (wanted ?? []).every((path) => {
    if (has(owner, path)) return true;
    const slash = path.indexOf('/');
    return slash >= 0 && has(owner, `*/${path.slice(slash + 1)}`);
  });
}

/** "/healthz/*" holds "/healthz/etcd"; otherwise a URL holds only itself. */
function urlCovered(owner: string, url: string): boolean {
  return owner === url || (owner.endsWith('*') && url.startsWith(owner.replace(/\*+$/, '')));
}

/** Whether an owner rule holds a broken-down rule. */
export function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, '*') || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, '*') || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourcesCovered(owner.resources, sub.resources);
  const urls = (sub.nonResourceURLs ?? []).every((u) => (owner.nonResourceURLs ?? []).some((o) => urlCovered(o, u)));
  const names = sub.resourceNames?.length
    ? !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames)
    : !owner.resourceNames?.length;
  return verbs && groups && resources && urls && names;
}

/** The broken-down rules of `wanted` that no rule of `owner` holds (empty: all held). */
export function uncoveredRules(owner: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakdownRule).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/**
 * Rules of one group, one resource and at most one name that differ only in their verbs become
 * one (verbs in the order met, repeats kept); every other rule stays as it is.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const others: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const r of rules) {
    const isSimple =
      (r.resourceNames?.length ?? 0) <= 1 &&
      !r.nonResourceURLs?.length &&
      r.apiGroups?.length === 1 &&
      r.resources?.length === 1;
    if (!isSimple) {
      others.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups![0], r.resources![0], r.resourceNames?.[0] ?? null]);
    const seen = simple.get(key);
    if (seen) seen.verbs = [...(seen.verbs ?? []), ...(r.verbs ?? [])];
    else simple.set(key, { ...r, verbs: [...(r.verbs ?? [])] });
  }
  return [...others, ...simple.values()];
}

/** Go's %q of a string slice: ["a" "b"]. */
export function quotedList(list: readonly string[]): string {
  return `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;
}

/** A rule as the escalation message shows it: {APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if (r.apiGroups?.length) parts.push(`APIGroups:${quotedList(r.apiGroups)}`);
  if (r.resources?.length) parts.push(`Resources:${quotedList(r.resources)}`);
  if (r.nonResourceURLs?.length) parts.push(`NonResourceURLs:${quotedList(r.nonResourceURLs)}`);
  if (r.resourceNames?.length) parts.push(`ResourceNames:${quotedList(r.resourceNames)}`);
  if (r.verbs?.length) parts.push(`Verbs:${quotedList(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** The missing rules, compacted, described and sorted without repeats, one a line. */
export function describeMissing(missing: readonly PolicyRule[]): string {
  return [...new Set(compactRules(missing).map(compactString))].sort().join('\n');
}
