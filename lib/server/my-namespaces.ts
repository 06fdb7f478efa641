// The namespaces a person can use, found the way the cluster lets them be found, as the person:
// OpenShift serves `projects`, which lists for each person the projects they may use; elsewhere
// a person who may list namespaces gets them all; a namespace admin may list neither, so names
// the browser remembers (typed once, then kept per person) and the namespace of the person's own
// service account are each checked with a SelfSubjectAccessReview. A list is never the only way
// on: the chooser always lets a person type a name, which this module checks before it is kept.
import type { MyNamespacesAnswer, RefusedNamespace } from '../api/my-namespaces';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import type { ResourceType } from '../olm/resources/common';
import { NAMESPACE_TYPE } from './install';
import { accessReview, whoAmIWithGroups } from './permissions';

const PROJECT_TYPE: ResourceType = {
  group: 'project.openshift.io',
  version: 'v1',
  plural: 'projects',
  namespaced: false,
  kind: 'Project',
};

const OLM = 'operators.coreos.com';

/** At most this many candidate names are checked per request: one review each. */
export const MAX_CANDIDATES = 20;

async function names(client: KubeClient, type: ResourceType): Promise<string[] | undefined> {
  try {
    const list = await client.listAll<{ metadata?: { name?: string } }>(type);
    return list.items.map((o) => o.metadata?.name ?? '').filter(Boolean);
  } catch (err) {
    // 404: the API is not served here (not OpenShift); 403: the person may not list it.
    if (isKubeError(err, 404) || isKubeError(err, 403)) return undefined;
    throw err;
  }
}

// "May act" is what the namespaced pages need first: reading the operators installed there
// (Installed Operators lists ClusterServiceVersions). A person who may only install but not read
// would see an empty page, so both are asked and either is enough to offer the namespace.
async function mayAct(client: KubeClient, namespace: string): Promise<{ allowed: boolean; reason?: string }> {
  const [read, install] = await Promise.all([
    accessReview(client, 'list', OLM, 'clusterserviceversions', namespace),
    accessReview(client, 'create', OLM, 'subscriptions', namespace),
  ]);
  if (read.allowed || install.allowed) return { allowed: true };
  return {
    allowed: false,
    reason: `you may neither read nor install operators in ${namespace}: ${read.reason ?? 'the cluster refused'}`,
  };
}

/** The service account's own namespace, from the username the API server gives it. */
function serviceAccountNamespace(username: string): string | undefined {
  const m = /^system:serviceaccount:([^:]+):[^:]+$/.exec(username);
  return m?.[1];
}

export async function myNamespaces(client: KubeClient, candidates: readonly string[]): Promise<MyNamespacesAnswer> {
  const [who, clusterWide] = await Promise.all([
    whoAmIWithGroups(client),
    accessReview(client, 'list', OLM, 'clusterserviceversions'),
  ]);
  const base = { username: who.username, clusterWide: clusterWide.allowed };
  const projects = await names(client, PROJECT_TYPE);
  if (projects) return { ...base, source: 'projects', namespaces: projects.sort(), refused: [] };
  const all = await names(client, NAMESPACE_TYPE);
  if (all) {
    // Candidates still get an answer: a typed name that does not exist is said to be missing.
    const known = new Set(all);
    const refused: RefusedNamespace[] = candidates
      .filter((c) => !known.has(c))
      .map((name) => ({ name, reason: `namespace ${name} does not exist` }));
    return { ...base, source: 'namespaces', namespaces: all.sort(), refused };
  }
  const sa = serviceAccountNamespace(who.username);
  const asked = [...new Set([...candidates, ...(sa ? [sa] : [])])].slice(0, MAX_CANDIDATES);
  const answers = await Promise.all(asked.map(async (name) => ({ name, ...(await mayAct(client, name)) })));
  return {
    ...base,
    source: 'access-reviews',
    namespaces: answers
      .filter((a) => a.allowed)
      .map((a) => a.name)
      .sort(),
    refused: answers.filter((a) => !a.allowed).map((a) => ({ name: a.name, reason: a.reason ?? '' })),
  };
}
