// kube-controller-manager's ClusterRole aggregation controller: a ClusterRole with an
// aggregationRule gets, written into its `rules`, the rules of every other ClusterRole its
// selectors match (selector by selector, the matches by name, each rule once), and again
// whenever any ClusterRole is created, changed or deleted. The authorizer and the escalation
// check read `rules` only, so what a role grants is what a client reads in it, as on a real
// cluster. The sandbox runs it as soon as the change is committed, where kube-controller-manager
// takes a moment.
import { matchesLabelSelector } from '../../olm/resources/label-selector';
import type { LabelSelector } from '../../olm/resources/common';
import type { ApiCore } from '../server/api-core';
import { storeKey } from '../server/resources';
import type { KObject } from '../store/types';
import type { PolicyRule } from './rbac';

const FIELDS = ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs', 'verbs'] as const;

/** Semantic equality of two rules: an absent list equals an empty one. */
function sameRule(a: PolicyRule, b: PolicyRule): boolean {
  return FIELDS.every((f) => JSON.stringify(a[f] ?? []) === JSON.stringify(b[f] ?? []));
}

function sameRules(a: readonly PolicyRule[], b: readonly PolicyRule[]): boolean {
  return a.length === b.length && a.every((r, i) => sameRule(r, b[i]!));
}

/** The rules an aggregated ClusterRole should hold; undefined for one without an aggregationRule. */
export function aggregatedRules(role: KObject, all: readonly KObject[]): PolicyRule[] | undefined {
  const rule = role.aggregationRule as { clusterRoleSelectors?: LabelSelector[] } | undefined | null;
  if (!rule) return undefined;
  const out: PolicyRule[] = [];
  for (const selector of rule.clusterRoleSelectors ?? []) {
    const matched = all
      .filter((r) => r.metadata.name !== role.metadata.name && matchesLabelSelector(selector, r.metadata.labels))
      .sort((a, b) => ((a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1));
    for (const r of matched) {
      for (const x of (r.rules as PolicyRule[] | undefined) ?? []) if (!out.some((y) => sameRule(x, y))) out.push(x);
    }
  }
  return out;
}

/** Starts the controller on the API server's ClusterRoles, and makes one pass at once. */
export function startClusterRoleAggregation(core: ApiCore): void {
  const r = core.resources.find('rbac.authorization.k8s.io', 'v1', 'clusterroles')!;
  let running = false;
  let again = false;
  // One pass over every aggregated role; its own writes are ClusterRole changes too, so passes
  // repeat until none writes (a role aggregating an aggregated one settles in a second pass).
  const sync = () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        const all = core.store.list(storeKey(r)).items;
        for (const role of all) {
          const rules = aggregatedRules(role, all);
          if (!rules || sameRules(rules, (role.rules as PolicyRule[] | undefined) ?? [])) continue;
          const fresh = core.store.get(storeKey(r), undefined, role.metadata.name ?? '');
          if (fresh) core.updateObject(r, { ...fresh, rules });
        }
      } while (again);
    } finally {
      running = false;
    }
  };
  const previous = core.hooks.onChange;
  core.hooks.onChange = (res, e) => {
    previous?.(res, e);
    if (res.group === r.group && res.resource === r.resource) sync();
  };
  sync();
}
