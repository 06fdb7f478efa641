// A refusal of the API server inside an OLM message, in words. With a scoped OperatorGroup OLM
// writes as the group's service account and, when the API server refuses, puts its answer into
// the InstallPlan's message ("retrying execution due to error: error creating csv x: …") or the
// CSV's ("install strategy failed: …"). Two answers matter (kube-apiserver's wording):
// authorization's "<resource> is forbidden: User "u" cannot <verb> resource "r" in API group "g"
// in the namespace "n"" (or "at the cluster scope"), and RBAC's escalation check, "user "u"
// (groups=[…]) is attempting to grant RBAC permissions not currently held:" followed by one
// compact rule per line.
import type { PolicyRule } from '../resources/cluster-service-version';

export interface MissingRight {
  rule: PolicyRule;
  /** Where the right is missing; undefined: cluster-wide. */
  namespace?: string;
}

export interface PermissionFailure {
  /** `forbidden`: one request was refused; `escalation`: the account may not grant rights it lacks. */
  kind: 'forbidden' | 'escalation';
  user: string;
  serviceAccount?: { namespace: string; name: string };
  missing: MissingRight[];
  /** The refusal in words, one sentence per missing right. */
  sentences: string[];
}

const SA_PREFIX = 'system:serviceaccount:';

function accountOf(user: string): PermissionFailure['serviceAccount'] {
  if (!user.startsWith(SA_PREFIX)) return undefined;
  const [namespace, name] = user.slice(SA_PREFIX.length).split(':');
  return namespace && name ? { namespace, name } : undefined;
}

function who(f: Pick<PermissionFailure, 'user' | 'serviceAccount'>): string {
  return f.serviceAccount
    ? `Service account ${f.serviceAccount.name} of namespace ${f.serviceAccount.namespace}`
    : `User ${f.user}`;
}

function resourceWords(r: PolicyRule): string {
  const group = r.apiGroups?.[0] ?? '';
  const names = r.resourceNames?.length ? ` named ${r.resourceNames.join(', ')}` : '';
  if (r.nonResourceURLs?.length)
    return `the URL${r.nonResourceURLs.length > 1 ? 's' : ''} ${r.nonResourceURLs.join(', ')}`;
  return `${(r.resources ?? []).join(', ')}${names} (${group ? `API group ${group}` : 'core API group'})`;
}

const where = (namespace: string | undefined) => (namespace ? `in namespace ${namespace}` : 'cluster-wide');

const FORBIDDEN =
  /User "([^"]+)" cannot (\S+) (resource|path) "([^"]*)"(?: in API group "([^"]*)")?(?: in the namespace "([^"]+)"| at the cluster scope)?/;
const ESCALATION =
  /([a-z]+)\.rbac\.authorization\.k8s\.io "[^"]*" is forbidden: user "([^"]+)" \(groups=\[[^\]]*\]\) is attempting to grant RBAC permissions not currently held:\n?([\s\S]*)/;

/** The list inside a compact rule (`["a" "b"]`). */
function list(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined;
  return [...text.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string);
}

/** One line of rbacv1helpers.CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
function compactRule(line: string): PolicyRule | undefined {
  const field = (name: string) => line.match(new RegExp(`${name}:(\\[[^\\]]*\\])`))?.[1];
  const verbs = list(field('Verbs'));
  if (!verbs?.length) return undefined;
  const rule: PolicyRule = { verbs };
  const apiGroups = list(field('APIGroups'));
  const resources = list(field('Resources'));
  const resourceNames = list(field('ResourceNames'));
  const nonResourceURLs = list(field('NonResourceURLs'));
  // An empty APIGroups list is not printed: the core group.
  if (resources?.length) rule.apiGroups = apiGroups ?? [''];
  if (resources?.length) rule.resources = resources;
  if (resourceNames?.length) rule.resourceNames = resourceNames;
  if (nonResourceURLs?.length) rule.nonResourceURLs = nonResourceURLs;
  return rule;
}

/**
 * The refusal in `message`, or undefined when it holds none. `namespace` is where OLM was
 * installing: an escalation on a Role names no namespace.
 */
export function explainPermissionFailure(
  message: string | undefined,
  namespace: string,
): PermissionFailure | undefined {
  if (!message) return undefined;
  const esc = message.match(ESCALATION);
  if (esc) {
    const clusterWide = esc[1]!.startsWith('cluster');
    const user = esc[2]!;
    const rules = (esc[3] ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l.startsWith('{'))
      .map(compactRule)
      .filter((r): r is PolicyRule => !!r);
    if (!rules.length) return undefined;
    const f = {
      kind: 'escalation' as const,
      user,
      serviceAccount: accountOf(user),
      missing: rules.map((rule) => ({ rule, ...(clusterWide ? {} : { namespace }) })),
    };
    const intro = `${who(f)} must hold every right it grants the operator, and lacks`;
    return {
      ...f,
      sentences: f.missing.map(
        (m) => `${intro}: ${m.rule.verbs.join(', ')} on ${resourceWords(m.rule)} ${where(m.namespace)}.`,
      ),
    };
  }
  const fb = message.match(FORBIDDEN);
  if (!fb) return undefined;
  const [, user, verb, what, target, group, ns] = fb as unknown as [
    string,
    string,
    string,
    string,
    string,
    string | undefined,
    string | undefined,
  ];
  const rule: PolicyRule =
    what === 'path'
      ? { verbs: [verb], nonResourceURLs: [target] }
      : { verbs: [verb], apiGroups: [group ?? ''], resources: [target] };
  const f = {
    kind: 'forbidden' as const,
    user,
    serviceAccount: accountOf(user),
    missing: [{ rule, ...(ns ? { namespace: ns } : {}) }],
  };
  return { ...f, sentences: [`${who(f)} may not ${verb} ${resourceWords(rule)} ${where(ns)}.`] };
}
