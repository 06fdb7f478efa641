// An installed operator's operands, read as the person: every instance of each API its CSV owns,
// in the namespaces it watches (all of them for an all-namespaces operator, then only those the
// person may list), with each one's state in a word; one instance with its spec and status read
// through the CSV's descriptors, its conditions and events; and its deletion as the person.
import type { OperandApi, OperandDetails, OperandList, OperandRow } from '../api/operands';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import {
  CSV_TYPE,
  isCopiedCsv,
  operatorNamespaceOf,
  ownedCrds,
  targetNamespacesOf,
  type ClusterServiceVersion,
  type OwnedCrd,
} from '../olm/resources/cluster-service-version';
import type { Condition, ResourceType } from '../olm/resources/common';
import { descriptorRows, operandState } from '../olm/resources/descriptors';
import { operandListScopes, watchedNamespaces } from '../olm/operand-form/namespaces';
import { ApiError } from './api-error';
import { operandTypes } from './api-scope';
import { EVENT_TYPE } from '../k8s/core-kinds';
import { trimmed } from './operators';
import { accessReview } from './permissions';

interface Operand {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    creationTimestamp?: string;
    deletionTimestamp?: string;
    finalizers?: string[];
  };
  spec?: unknown;
  status?: unknown;
}

const MAX_ROWS = 500;

export function apiOf(crd: OwnedCrd, type: ResourceType): OperandApi {
  return {
    group: crd.group,
    version: crd.version,
    plural: crd.plural,
    kind: crd.kind,
    namespaced: type.namespaced,
    displayName: crd.description.displayName || crd.kind,
    ...(crd.description.description ? { description: crd.description.description } : {}),
  };
}

// Events about a cluster-scoped object are recorded in `default` (client-go's recorder puts an
// event in its object's namespace, and "" becomes default).
const CLUSTER_EVENTS_NAMESPACE = 'default';

/**
 * The CSV that says what the operator owns and watches. A copy owns the same APIs; its instances
 * are the operator's, listed from where it runs. A person who may read only the copy (a namespace
 * admin in a namespace an all-namespaces operator serves) gets the copy: OLM copies the spec as it
 * is, and the copy carries no `olm.targetNamespaces`, so all it says of what the operator watches
 * is its own namespace, the one place that person works in anyway.
 */
export async function operatorCsv(client: KubeClient, namespace: string, name: string): Promise<ClusterServiceVersion> {
  const csv = await client.get<ClusterServiceVersion>(CSV_TYPE, name, namespace);
  const source = isCopiedCsv(csv) ? operatorNamespaceOf(csv) : undefined;
  if (!source || source === namespace) return csv;
  try {
    return await client.get<ClusterServiceVersion>(CSV_TYPE, name, source);
  } catch (err) {
    if (isKubeError(err, 403)) return csv;
    throw err;
  }
}

/**
 * The operator's CSV for an operand going to `target`, read where the operator runs; for a person
 * who may not read it there, OLM's copy in `target` from that namespace, whose presence says the
 * operator watches `target`.
 */
export async function operatorCsvFor(
  client: KubeClient,
  operatorNamespace: string,
  name: string,
  target: string,
): Promise<ClusterServiceVersion> {
  try {
    return await operatorCsv(client, operatorNamespace, name);
  } catch (err) {
    if (!isKubeError(err, 403) || target === operatorNamespace) throw err;
    const copy = await client.get<ClusterServiceVersion>(CSV_TYPE, name, target).catch(() => undefined);
    if (!copy || !isCopiedCsv(copy) || operatorNamespaceOf(copy) !== operatorNamespace) throw err;
    return copy;
  }
}

function row(o: Operand, crd: OwnedCrd): OperandRow {
  return {
    name: o.metadata?.name ?? '',
    ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
    ...(o.metadata?.creationTimestamp ? { createdAt: o.metadata.creationTimestamp } : {}),
    state: operandState(o, crd.description.statusDescriptors),
    ...(o.metadata?.deletionTimestamp
      ? { deleting: { since: o.metadata.deletionTimestamp, finalizers: o.metadata.finalizers ?? [] } }
      : {}),
  };
}

export async function listOperands(client: KubeClient, namespace: string, name: string): Promise<OperandList> {
  const csv = await operatorCsv(client, namespace, name);
  const watched = watchedNamespaces(targetNamespacesOf(csv), csv.metadata?.namespace ?? namespace);
  const typeOf = operandTypes(client);
  const apis = await Promise.all(
    ownedCrds(csv).map(async (crd) => {
      const type = await typeOf(crd);
      const items: Operand[] = [];
      const problems: string[] = [];
      const listIn = async (ns?: string) => {
        try {
          items.push(...(await client.listAll<Operand>(type, ns ? { namespace: ns } : {})).items);
          return true;
        } catch (err) {
          if (isKubeError(err, 404)) {
            problems.push(
              `${crd.plural}.${crd.group}/${crd.version} is not served (its CRD is missing or does not serve ${crd.version})`,
            );
            return true;
          }
          if (!isKubeError(err, 403)) throw err;
          if (ns) problems.push(`you may not list ${crd.plural} in ${ns}`);
          return false;
        }
      };
      for (const ns of operandListScopes(watched, type.namespaced)) {
        if (ns) await listIn(ns);
        else if (!(await listIn()))
          problems.push(
            type.namespaced
              ? `you may not list ${crd.plural} in every namespace; the operator watches all of them`
              : `you may not list ${crd.plural}, which are cluster-scoped`,
          );
      }
      const sorted = items.sort(
        (a, b) =>
          (a.metadata?.namespace ?? '').localeCompare(b.metadata?.namespace ?? '') ||
          (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''),
      );
      return {
        ...apiOf(crd, type),
        items: sorted.slice(0, MAX_ROWS).map((o) => row(o, crd)),
        total: sorted.length,
        ...(problems.length ? { problem: [...new Set(problems)].join('; ') } : {}),
      };
    }),
  );
  return { apis, scope: watched.all ? 'every namespace' : watched.namespaces.join(', ') };
}

export function ownedApi(csv: ClusterServiceVersion, group: string, version: string, plural: string): OwnedCrd {
  const crd = ownedCrds(csv).find((c) => c.group === group && c.version === version && c.plural === plural);
  if (!crd)
    throw new ApiError(404, 'NotFound', `${plural}.${group}/${version} is not an API ${csv.metadata?.name} provides`);
  return crd;
}

/**
 * The owned API and its type, checked against where the path says the instance is: a namespace
 * for a namespaced API, none for a cluster-scoped one.
 */
async function instanceApi(
  client: KubeClient,
  csv: ClusterServiceVersion,
  api: { group: string; version: string; plural: string },
  instanceNamespace: string | undefined,
): Promise<{ crd: OwnedCrd; type: ResourceType }> {
  const crd = ownedApi(csv, api.group, api.version, api.plural);
  const type = await operandTypes(client)(crd);
  if (type.namespaced && !instanceNamespace)
    throw new ApiError(
      404,
      'NotFound',
      `${crd.plural}.${crd.group} are namespaced: give the instance's namespace, not _cluster`,
    );
  if (!type.namespaced && instanceNamespace)
    throw new ApiError(
      404,
      'NotFound',
      `${crd.plural}.${crd.group} are cluster-scoped: an instance has no namespace (use _cluster in its place)`,
    );
  return { crd, type };
}

export async function operandDetails(
  client: KubeClient,
  namespace: string,
  name: string,
  api: { group: string; version: string; plural: string },
  instanceNamespace: string | undefined,
  instance: string,
): Promise<OperandDetails> {
  const csv = await operatorCsv(client, namespace, name);
  const { crd, type } = await instanceApi(client, csv, api, instanceNamespace);
  const [object, canDelete] = await Promise.all([
    client.get<Operand>(type, instance, instanceNamespace),
    accessReview(client, 'delete', crd.group, crd.plural, instanceNamespace),
  ]);
  let events: OperandDetails['events'] = [];
  try {
    const list = await client.listAll<{
      type?: string;
      reason?: string;
      message?: string;
      count?: number;
      lastTimestamp?: string;
      eventTime?: string;
      involvedObject?: { kind?: string; name?: string; namespace?: string };
      metadata?: { creationTimestamp?: string };
    }>(EVENT_TYPE, {
      namespace: instanceNamespace ?? CLUSTER_EVENTS_NAMESPACE,
      fieldSelector: `involvedObject.name=${instance}`,
    });
    events = list.items
      .filter(
        (e) => e.involvedObject?.kind === crd.kind && (instanceNamespace !== undefined || !e.involvedObject.namespace),
      )
      .map((e) => ({
        type: e.type,
        reason: e.reason,
        message: e.message,
        count: e.count,
        lastTimestamp: e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp,
      }))
      .sort((a, b) => (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? ''));
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
  }
  const conditions = ((object.status as { conditions?: Condition[] } | undefined)?.conditions ?? []).filter(
    (c) => c && typeof c.type === 'string',
  );
  return {
    api: apiOf(crd, type),
    object: trimmed(object) as OperandDetails['object'],
    state: operandState(object, crd.description.statusDescriptors),
    conditions,
    spec: descriptorRows(object.spec, crd.description.specDescriptors),
    status: descriptorRows(object.status, crd.description.statusDescriptors),
    events,
    canDelete,
  };
}

/** Deletes the instance as the person; its finalizers then hold it until the operator is done. */
export async function deleteOperand(
  client: KubeClient,
  namespace: string,
  name: string,
  api: { group: string; version: string; plural: string },
  instanceNamespace: string | undefined,
  instance: string,
): Promise<OperandRow | { gone: true }> {
  const csv = await operatorCsv(client, namespace, name);
  const { crd, type } = await instanceApi(client, csv, api, instanceNamespace);
  await client.delete(type, instance, { namespace: instanceNamespace });
  try {
    return row(await client.get<Operand>(type, instance, instanceNamespace), crd);
  } catch (err) {
    if (isKubeError(err, 404)) return { gone: true };
    throw err;
  }
}
