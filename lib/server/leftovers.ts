// What is left of a half-gone operator, as the person sees the cluster: gathers what lib/olm's
// leftovers rules need (the namespace's Subscriptions, CSVs, InstallPlans and OperatorGroups, the
// operator's CRDs and every instance, the cluster's CSVs, SelfSubjectAccessReviews per part),
// plans the chosen cleanup, and applies it step by step as the person. A failed step stops the
// cleanup and says what was done and what remains, with the cluster's own reason.
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import {
  leftoverCrdNames,
  whatIsLeft,
  type CrdFacts,
  type Instance,
  type LeftoverAnchor,
  type LeftoverFacts,
  type LeftoverPart,
  type Leftovers,
} from '../olm/install/leftovers';
import { planCleanup, type CleanupPlan, type CleanupStep } from '../olm/install/leftovers-plan';
import { CSV_TYPE, type ClusterServiceVersion } from '../olm/resources/cluster-service-version';
import type { ResourceType } from '../olm/resources/common';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../olm/resources/install-plan';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { ApiError } from './api-error';
import { accessReview } from './permissions';
import type { CleanupResultStep } from '../api/leftovers';
import { CRD_TYPE } from '../k8s/core-kinds';
export type { CleanupResultStep, PlannedCleanup } from '../api/leftovers';

const TYPES: Record<string, ResourceType> = {
  Subscription: SUBSCRIPTION_TYPE,
  ClusterServiceVersion: CSV_TYPE,
  InstallPlan: INSTALL_PLAN_TYPE,
  OperatorGroup: OPERATOR_GROUP_TYPE,
  CustomResourceDefinition: CRD_TYPE,
};

interface Crd {
  metadata?: { deletionTimestamp?: string };
  spec?: {
    group?: string;
    scope?: string;
    names?: { plural?: string; kind?: string };
    versions?: { name: string; served?: boolean; storage?: boolean }[];
  };
}

/** A forbidden list is a fact the person reads (it refuses parts), not a failure of the whole view. */
async function listOr<T extends object>(
  client: KubeClient,
  t: ResourceType,
  opts: { namespace?: string; labelSelector?: string },
  what: string,
): Promise<T[] | string> {
  try {
    return (await client.listAll<T>(t, opts)).items;
  } catch (err) {
    if (isKubeError(err, 403)) return `you may not list ${what}`;
    if (isKubeError(err, 404)) return [];
    throw err;
  }
}

async function crdFacts(client: KubeClient, name: string): Promise<CrdFacts> {
  let crd: Crd;
  try {
    crd = await client.get<Crd>(CRD_TYPE, name);
  } catch (err) {
    if (isKubeError(err, 404)) return { name, instances: [] };
    if (isKubeError(err, 403)) return { name, instances: `you may not read CustomResourceDefinition ${name}` };
    throw err;
  }
  const v = crd.spec?.versions?.find((x) => x.storage) ?? crd.spec?.versions?.find((x) => x.served);
  const api: ResourceType = {
    group: crd.spec?.group ?? '',
    version: v?.name ?? 'v1',
    plural: crd.spec?.names?.plural ?? '',
    namespaced: crd.spec?.scope !== 'Cluster',
    kind: crd.spec?.names?.kind ?? '',
  };
  const instances = await listOr<Instance>(client, api, {}, `${api.plural}.${api.group} in every namespace`);
  return {
    name,
    crd: {
      group: api.group,
      kind: api.kind,
      plural: api.plural,
      version: api.version,
      namespaced: api.namespaced,
      ...(crd.metadata?.deletionTimestamp ? { deletionTimestamp: crd.metadata.deletionTimestamp } : {}),
    },
    instances,
  };
}

/** SelfSubjectAccessReviews for each part: what the person may not do, with the cluster's reason. */
async function denials(
  client: KubeClient,
  namespace: string,
  parts: readonly LeftoverPart[],
): Promise<Record<string, string>> {
  const cache = new Map<string, Promise<{ allowed: boolean; reason?: string }>>();
  const ask = (verb: string, group: string, resource: string, ns?: string) => {
    const key = `${verb} ${group} ${resource} ${ns ?? ''}`;
    if (!cache.has(key)) cache.set(key, accessReview(client, verb, group, resource, ns));
    return cache.get(key)!;
  };
  const out: Record<string, string> = {};
  await Promise.all(
    parts.map(async (p) => {
      const checks: [string, string, string, string | undefined][] = [];
      if (p.kind in TYPES) {
        const t = TYPES[p.kind]!;
        checks.push(['delete', t.group, t.plural, t.namespaced ? namespace : undefined]);
      } else if (p.api) {
        const verb = p.kind === 'Finalizers' ? 'patch' : 'delete';
        const namespaces = [...new Set((p.instances?.items ?? []).map((i) => i.namespace))];
        for (const ns of namespaces) checks.push([verb, p.api.group, p.api.plural, ns]);
      }
      for (const [verb, group, resource, ns] of checks) {
        const r = await ask(verb, group, resource, ns);
        if (!r.allowed) {
          out[p.id] = r.reason ?? `you may not ${verb} ${resource}${ns ? ` in ${ns}` : ''}`;
          return;
        }
      }
    }),
  );
  return out;
}

export async function leftovers(client: KubeClient, namespace: string, anchor: LeftoverAnchor): Promise<Leftovers> {
  const [subs, csvs, plans, groups, clusterCsvs] = await Promise.all([
    client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace }).then((l) => l.items),
    client.listAll<ClusterServiceVersion>(CSV_TYPE, { namespace }).then((l) => l.items),
    client.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace }).then((l) => l.items),
    listOr<OperatorGroup>(client, OPERATOR_GROUP_TYPE, { namespace }, `OperatorGroups in ${namespace}`),
    listOr<ClusterServiceVersion>(
      client,
      CSV_TYPE,
      { labelSelector: '!olm.copiedFrom' },
      'ClusterServiceVersions in every namespace, so it cannot be told which other operators use these CRDs',
    ),
  ]);
  const base = {
    namespace,
    anchor,
    subscriptions: subs,
    csvs,
    installPlans: plans,
    operatorGroups: typeof groups === 'string' ? [] : groups,
  };
  if (!anchor.csv && !subs.some((s) => s.metadata?.name === anchor.subscription)) {
    throw new ApiError(
      404,
      'NotFound',
      `no Subscription ${anchor.subscription} in ${namespace}; to see what is left of an operator without one, name its CSV`,
    );
  }
  const crds = await Promise.all(leftoverCrdNames(base).map((n) => crdFacts(client, n)));
  const facts: LeftoverFacts = { ...base, crds, clusterCsvs, denied: {} };
  const first = whatIsLeft(facts);
  const denied = await denials(client, namespace, first.parts);
  const view = whatIsLeft({ ...facts, denied });
  if (typeof groups === 'string')
    view.notes.push(`${groups}: an OperatorGroup the console made for this operator cannot be shown`);
  return view;
}

export interface LeftoverView {
  leftovers: Leftovers;
}

export async function planLeftoverCleanup(
  client: KubeClient,
  namespace: string,
  anchor: LeftoverAnchor,
  parts: readonly string[],
): Promise<{ leftovers: Leftovers; plan: CleanupPlan }> {
  const left = await leftovers(client, namespace, anchor);
  return { leftovers: left, plan: planCleanup(left, parts) };
}

export const stepKey = (s: Pick<CleanupStep, 'action' | 'kind' | 'name' | 'namespace'>): string =>
  `${s.action} ${s.kind} ${s.namespace ? `${s.namespace}/` : ''}${s.name}`;

async function runStep(client: KubeClient, s: CleanupStep): Promise<CleanupResultStep['outcome']> {
  const t = s.api ?? TYPES[s.kind];
  if (!t) throw new Error(`no API known for ${s.kind}`);
  try {
    if (s.action === 'delete') {
      await client.delete(t, s.name, { namespace: s.namespace, propagationPolicy: 'Background' });
      return 'deleted';
    }
    // Removes only the finalizers the plan named, at the resourceVersion just read: a finalizer
    // added meanwhile (or the garbage collector's) stays.
    const cur = await client.get<{ metadata?: { resourceVersion?: string; finalizers?: string[] } }>(
      t,
      s.name,
      s.namespace,
    );
    const keep = (cur.metadata?.finalizers ?? []).filter((f) => !(s.finalizers ?? []).includes(f));
    await client.patch(
      t,
      s.name,
      [
        { op: 'test', path: '/metadata/resourceVersion', value: cur.metadata?.resourceVersion },
        { op: 'replace', path: '/metadata/finalizers', value: keep },
      ],
      { namespace: s.namespace, type: 'json' },
    );
    return 'finalizers-removed';
  } catch (err) {
    if (isKubeError(err, 404)) return 'already-gone';
    throw err;
  }
}

/**
 * Plans again and applies it when it is the plan the person saw (`seen`: the steps previewed, by
 * `stepKey`); anything else is a 409 with the new plan's steps to look at again.
 */
export async function applyLeftoverCleanup(
  client: KubeClient,
  namespace: string,
  anchor: LeftoverAnchor,
  parts: readonly string[],
  seen: readonly string[],
): Promise<{ steps: CleanupResultStep[] }> {
  const { plan } = await planLeftoverCleanup(client, namespace, anchor, parts);
  if (plan.blockers.length) throw new ApiError(409, 'Conflict', plan.blockers.join('; '), { blockers: plan.blockers });
  const keys = plan.steps.map(stepKey);
  if (keys.length !== seen.length || keys.some((k, i) => k !== seen[i])) {
    throw new ApiError(
      409,
      'Conflict',
      'what is left changed since the preview: look at the new preview before cleaning up',
      { steps: keys },
    );
  }
  const done: CleanupResultStep[] = [];
  for (const [i, s] of plan.steps.entries()) {
    const row = { action: s.action, kind: s.kind, name: s.name, ...(s.namespace ? { namespace: s.namespace } : {}) };
    try {
      done.push({ ...row, outcome: await runStep(client, s) });
    } catch (err) {
      const message = (err as Error).message;
      const rest = plan.steps.slice(i + 1).map((r) => ({
        action: r.action,
        kind: r.kind,
        name: r.name,
        ...(r.namespace ? { namespace: r.namespace } : {}),
        outcome: 'not-done' as const,
      }));
      const doneText = done.map((d) => stepKey(d)).join(', ') || 'nothing';
      const restText = [stepKey(s), ...rest.map((r) => stepKey(r))].join(', ');
      throw new ApiError(
        isKubeError(err) ? err.code : 500,
        isKubeError(err) ? err.reason : 'InternalError',
        `${stepKey(s)} failed: ${message}. Done: ${doneText}. Still to do: ${restText}`,
        { steps: [...done, { ...row, outcome: 'failed', message }, ...rest] },
      );
    }
  }
  return { steps: done };
}
