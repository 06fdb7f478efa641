// A CSV's RBAC rules in plain words, and which of them deserve a second look.
//
// What the two lists mean (docs/olm/install-plans.md, docs/olm/copied-csvs.md, from OLM's source):
// - `spec.install.spec.clusterPermissions`: OLM v0 makes one ClusterRole and a ClusterRoleBinding
//   per entry (`<csv>-<hash>`), so the rules hold in every namespace and on cluster-scoped
//   resources; operator-controller v1.2.0 does the same (registryv1 conversion).
// - `spec.install.spec.permissions`: OLM v0 makes a Role and RoleBinding in the operator's
//   namespace and copies them into each target namespace of the OperatorGroup; for an
//   AllNamespaces group it promotes them to a ClusterRole and ClusterRoleBinding instead. OLM v1
//   installs for all namespaces, so it always promotes them. Either way they hold in "the
//   namespaces it is installed for".
// The words are for a person deciding whether to install: verbs as Kubernetes' authorizer reads
// them (`*` is every verb, `""` is the core group), resource names and non-resource URLs said.
import { Cuts, record, text } from './read-strict';

export interface PolicyRuleWords {
  verbs: string[];
  apiGroups: string[];
  resources: string[];
  resourceNames: string[];
  nonResourceURLs: string[];
}

export type NotableCode = 'wildcard' | 'secrets' | 'escalation' | 'exec' | 'nodes' | 'crds' | 'webhooks';

export interface Notable {
  code: NotableCode;
  words: string;
}

export interface BringsRule extends PolicyRuleWords {
  /** The rule in plain words, e.g. "read, list and watch secrets in every namespace". */
  words: string;
  /** Why a person should look twice; empty when nothing stands out. */
  notable: Notable[];
}

export interface BringsPermission {
  serviceAccount: string;
  rules: BringsRule[];
}

export type RuleScope = 'clusterWide' | 'namespaced';

/** Cluster-scoped resources by `group/resource`: a cluster-wide rule on them holds "across the cluster". */
const CLUSTER_SCOPED = new Set([
  '/nodes',
  '/namespaces',
  '/persistentvolumes',
  '/componentstatuses',
  'rbac.authorization.k8s.io/clusterroles',
  'rbac.authorization.k8s.io/clusterrolebindings',
  'apiextensions.k8s.io/customresourcedefinitions',
  'apiregistration.k8s.io/apiservices',
  'admissionregistration.k8s.io/validatingwebhookconfigurations',
  'admissionregistration.k8s.io/mutatingwebhookconfigurations',
  'admissionregistration.k8s.io/validatingadmissionpolicies',
  'admissionregistration.k8s.io/validatingadmissionpolicybindings',
  'storage.k8s.io/storageclasses',
  'storage.k8s.io/csidrivers',
  'storage.k8s.io/csinodes',
  'storage.k8s.io/volumeattachments',
  'scheduling.k8s.io/priorityclasses',
  'node.k8s.io/runtimeclasses',
  'certificates.k8s.io/certificatesigningrequests',
  'networking.k8s.io/ingressclasses',
  'authentication.k8s.io/tokenreviews',
  'authorization.k8s.io/subjectaccessreviews',
  'authorization.k8s.io/selfsubjectaccessreviews',
  'authorization.k8s.io/selfsubjectrulesreviews',
  'flowcontrol.apiserver.k8s.io/flowschemas',
  'flowcontrol.apiserver.k8s.io/prioritylevelconfigurations',
]);

const VERB_ORDER = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection'];
const VERB_WORDS: Record<string, string> = {
  get: 'read',
  deletecollection: 'delete collections of',
};
const WRITES = new Set(['*', 'create', 'update', 'patch', 'delete', 'deletecollection']);

/** "a", "a and b", "a, b and c". */
export function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

const sortVerbs = (verbs: readonly string[]) =>
  [...new Set(verbs)].sort((a, b) => {
    const ia = VERB_ORDER.indexOf(a);
    const ib = VERB_ORDER.indexOf(b);
    if (ia >= 0 || ib >= 0) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    return a < b ? -1 : a > b ? 1 : 0;
  });

function verbWords(verbs: readonly string[]): string {
  if (verbs.includes('*')) return 'do everything on';
  return joinWords(sortVerbs(verbs).map((v) => VERB_WORDS[v] ?? v));
}

/** " in group apps", " in the core group and groups a and b", " in every API group"; "" for the core group. */
export function groupWords(groups: readonly string[]): string {
  if (groups.includes('*')) return ' in every API group';
  const named = groups.filter((g) => g !== '');
  if (!named.length) return '';
  const core = groups.includes('') ? 'the core group and ' : '';
  return ` in ${core}group${named.length > 1 ? 's' : ''} ${joinWords(named)}`;
}

/** Where a rule holds: cluster-wide rules by the scope of what they name, namespaced ones in their namespaces. */
function placeWords(rule: PolicyRuleWords, scope: RuleScope, clusterScoped: ReadonlySet<string>): string {
  if (scope === 'namespaced') return 'in the namespaces it is installed for';
  if (rule.resources.includes('*')) return 'in every namespace and across the cluster';
  const isCluster = (r: string) => {
    const base = r.split('/')[0]!;
    return rule.apiGroups.some((g) => clusterScoped.has(`${g}/${base}`) || CLUSTER_SCOPED.has(`${g}/${base}`));
  };
  const cluster = rule.resources.filter(isCluster).length;
  if (cluster === rule.resources.length) return 'across the cluster';
  return cluster ? 'in every namespace and across the cluster' : 'in every namespace';
}

/**
 * The rule in words. `clusterScoped` adds `group/resource` of the bundle's own cluster-scoped CRDs
 * to the built-in ones, so that a cluster-wide rule on them is said to hold across the cluster.
 */
export function ruleWords(
  rule: PolicyRuleWords,
  scope: RuleScope,
  clusterScoped: ReadonlySet<string> = new Set(),
): string {
  if (!rule.verbs.length) return 'nothing: the rule names no verbs';
  const parts: string[] = [];
  if (rule.resources.length) {
    const what = rule.resources.includes('*') ? 'every resource' : joinWords(rule.resources);
    const names = rule.resourceNames.length ? ` named ${joinWords(rule.resourceNames)}` : '';
    parts.push(
      `${verbWords(rule.verbs)} ${what}${names}${groupWords(rule.apiGroups)} ${placeWords(rule, scope, clusterScoped)}`,
    );
  }
  if (rule.nonResourceURLs.length) {
    const urls = rule.nonResourceURLs.includes('*')
      ? 'every non-resource URL'
      : `the non-resource URL${rule.nonResourceURLs.length > 1 ? 's' : ''} ${joinWords(rule.nonResourceURLs)}`;
    parts.push(`${verbWords(rule.verbs)} ${urls} of the API server`);
  }
  return parts.length ? parts.join('; ') : `${verbWords(rule.verbs)} nothing: the rule names no resources`;
}

/** Whether the rule names `resource` (itself, not by `*`) in `group` (or every group). */
const names = (rule: PolicyRuleWords, group: string, resource: string) =>
  (rule.apiGroups.includes(group) || rule.apiGroups.includes('*')) && rule.resources.includes(resource);

/** Why a rule deserves a second look. A wildcard is said once, not as every right it implies. */
export function notableOf(rule: PolicyRuleWords): Notable[] {
  const out: Notable[] = [];
  const wild = [
    rule.verbs.includes('*') && 'every verb',
    rule.resources.includes('*') && 'every resource',
    rule.apiGroups.includes('*') && 'every API group',
    rule.nonResourceURLs.includes('*') && 'every non-resource URL',
  ].filter((w): w is string => Boolean(w));
  if (wild.length) out.push({ code: 'wildcard', words: `wildcard: ${joinWords(wild)}` });
  if (names(rule, '', 'secrets'))
    out.push({ code: 'secrets', words: 'secrets hold credentials of every workload that can be reached' });
  const rbac = ['escalate', 'bind', 'impersonate'].filter((v) => rule.verbs.includes(v));
  const starOnRbac =
    rule.verbs.includes('*') &&
    (['roles', 'clusterroles'].some((r) => names(rule, 'rbac.authorization.k8s.io', r)) ||
      ['users', 'groups', 'serviceaccounts'].some((r) => names(rule, '', r)));
  if (rbac.length || starOnRbac)
    out.push({
      code: 'escalation',
      words: `may grant or use rights it does not hold (${rbac.length ? joinWords(rbac) : 'every verb on RBAC'})`,
    });
  const exec = ['pods/exec', 'pods/attach'].filter((r) => names(rule, '', r));
  if (exec.length) out.push({ code: 'exec', words: `may run commands in pods (${joinWords(exec)})` });
  if (['nodes', 'nodes/proxy'].some((r) => names(rule, '', r)))
    out.push({ code: 'nodes', words: 'acts on nodes, which every workload runs on' });
  const writes = rule.verbs.some((v) => WRITES.has(v));
  if (writes && names(rule, 'apiextensions.k8s.io', 'customresourcedefinitions'))
    out.push({ code: 'crds', words: "changes CustomResourceDefinitions, other operators' APIs included" });
  if (
    writes &&
    ['validatingwebhookconfigurations', 'mutatingwebhookconfigurations'].some((r) =>
      names(rule, 'admissionregistration.k8s.io', r),
    )
  )
    out.push({ code: 'webhooks', words: 'changes admission webhooks, which see or change every matching request' });
  return out;
}

/** A rule as read from a CSV: strings only, lists bounded; undefined when it is not an object. */
export function readRule(v: unknown, cuts: Cuts): PolicyRuleWords | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const r = record(v);
  return {
    verbs: cuts.texts(r.verbs, 'verbs of a rule'),
    apiGroups: Array.isArray(r.apiGroups)
      ? cuts
          .list(r.apiGroups, 'API groups of a rule')
          .filter((g): g is string => typeof g === 'string' && g.length < 254)
      : [],
    resources: cuts.texts(r.resources, 'resources of a rule'),
    resourceNames: cuts.texts(r.resourceNames, 'resource names of a rule'),
    nonResourceURLs: cuts.texts(r.nonResourceURLs, 'non-resource URLs of a rule'),
  };
}

export function describeRule(
  rule: PolicyRuleWords,
  scope: RuleScope,
  clusterScoped: ReadonlySet<string> = new Set(),
): BringsRule {
  return { ...rule, words: ruleWords(rule, scope, clusterScoped), notable: notableOf(rule) };
}

/** One scope's list (`permissions` or `clusterPermissions`) read strictly and put in words. */
export function readPermissions(
  v: unknown,
  scope: RuleScope,
  cuts: Cuts,
  clusterScoped: ReadonlySet<string>,
): BringsPermission[] {
  const what = scope === 'clusterWide' ? 'cluster-wide permissions' : 'namespaced permissions';
  const out: BringsPermission[] = [];
  for (const entry of cuts.list(v, what)) {
    const e = record(entry);
    const rules = cuts
      .list(e.rules, `rules of ${what}`)
      .map((r) => readRule(r, cuts))
      .filter((r): r is PolicyRuleWords => r !== undefined)
      .map((r) => describeRule(r, scope, clusterScoped));
    // operator-controller names an empty account `default`; OLM v0 would fail the CSV instead.
    out.push({ serviceAccount: text(e.serviceAccountName) ?? 'default', rules });
  }
  return out;
}
