// Uninstalling an operator, as the person: first what will go and what will stay (operands
// listed by namespace), then the deletes in the order that lets finalizers work — operands
// (foreground, waited for while the operator still runs), the Subscription, the CSV (its copies
// and deployments go with it), and the OperatorGroup the console created, when asked and when
// no other operator uses it. A failure stops there and says what remains and how to finish.
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import { CREATED_BY_LABEL } from '../olm/install/plan';
import {
  CSV_TYPE,
  isCopiedCsv,
  operatorNamespaceOf,
  ownedCrds,
  targetNamespacesOf,
  type ClusterServiceVersion,
} from '../olm/resources/cluster-service-version';
import type { ResourceType } from '../olm/resources/common';
import { describeCsv } from '../olm/resources/csv-description';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import type { CrdRemoval, OperandRef, UninstallPreview, UninstallStep } from '../api/operators';
import { crdsInUse, instanceConfirmation } from '../olm/install/crd-removal';
import { operandListScopes, watchedNamespaces } from '../olm/operand-form/namespaces';
import { operandTypes } from './api-scope';
import { accessReview } from './permissions';
import { z } from 'zod';
import { ApiError } from './api-error';
import { CRD_TYPE } from '../k8s/core-kinds';

async function listOperands(client: KubeClient, csv: ClusterServiceVersion): Promise<UninstallPreview['operands']> {
  const home = csv.metadata?.namespace ?? '';
  const watched = watchedNamespaces(targetNamespacesOf(csv), home);
  const byNamespace: Record<string, OperandRef[]> = {};
  const problems: string[] = [];
  let total = 0;
  const typeOf = operandTypes(client);
  for (const crd of ownedCrds(csv)) {
    const type = await typeOf(crd);
    const scopes = operandListScopes(watched, type.namespaced);
    // Its own namespace too, watched or not: what goes with the operator is looked for there as well.
    for (const ns of scopes[0] === undefined ? scopes : [...new Set([...scopes, home])]) {
      try {
        const items = (
          await client.listAll<{ metadata?: { name?: string; namespace?: string } }>(type, ns ? { namespace: ns } : {})
        ).items;
        for (const o of items) {
          const key = o.metadata?.namespace ?? '';
          (byNamespace[key] ??= []).push({
            apiVersion: `${crd.group}/${crd.version}`,
            kind: crd.kind,
            plural: crd.plural,
            name: o.metadata?.name ?? '',
            ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
          });
          total++;
        }
      } catch (err) {
        if (isKubeError(err, 404)) continue;
        problems.push(`could not list ${crd.plural}.${crd.group}${ns ? ` in ${ns}` : ''}: ${(err as Error).message}`);
      }
    }
  }
  return { total, byNamespace, problems };
}

async function load(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<{ csv: ClusterServiceVersion; sub?: Subscription; subs: Subscription[]; group?: OperatorGroup }> {
  const csv = await client.get<ClusterServiceVersion>(CSV_TYPE, name, namespace);
  if (isCopiedCsv(csv)) {
    throw new ApiError(
      400,
      'BadRequest',
      `${name} in ${namespace} is OLM's copy of the operator installed in ${operatorNamespaceOf(csv)}; uninstall it there (copies go with it)`,
    );
  }
  const [subs, groups] = await Promise.all([
    client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace }),
    client.listAll<OperatorGroup>(OPERATOR_GROUP_TYPE, { namespace }).catch((err: unknown) => {
      if (isKubeError(err, 403)) return { items: [] as OperatorGroup[] };
      throw err;
    }),
  ]);
  const sub = subs.items.find((s) => s.status?.installedCSV === name || s.status?.currentCSV === name);
  return { csv, sub, subs: subs.items, group: groups.items.length === 1 ? groups.items[0] : undefined };
}

interface Instance {
  metadata?: { name?: string; namespace?: string; deletionTimestamp?: string; finalizers?: string[] };
}

/** Every instance of the CSV's CRDs in the whole cluster, and who else owns or requires them. */
async function crdRemoval(
  client: KubeClient,
  csv: ClusterServiceVersion,
): Promise<CrdRemoval & { refs: OperandRef[] }> {
  const owned = ownedCrds(csv);
  const problems: string[] = [];
  const refs: OperandRef[] = [];
  const crds: CrdRemoval['crds'] = [];
  for (const crd of owned) {
    let scope = 'Namespaced';
    try {
      scope = (await client.get<{ spec?: { scope?: string } }>(CRD_TYPE, crd.name)).spec?.scope ?? 'Namespaced';
    } catch (err) {
      if (isKubeError(err, 404)) continue; // already gone: nothing to remove
      if (!isKubeError(err, 403)) throw err;
      problems.push(`you may not read CustomResourceDefinition ${crd.name}`);
    }
    const type: ResourceType = {
      group: crd.group,
      version: crd.version,
      plural: crd.plural,
      namespaced: scope !== 'Cluster',
      kind: crd.kind,
    };
    let items: Instance[] = [];
    try {
      items = (await client.listAll<Instance>(type)).items;
    } catch (err) {
      if (isKubeError(err, 403))
        problems.push(
          `you may not list ${crd.plural}.${crd.group} in every namespace, so its instances cannot all be counted`,
        );
      else if (!isKubeError(err, 404)) throw err;
    }
    const byNamespace: Record<string, number> = {};
    for (const o of items) {
      byNamespace[o.metadata?.namespace ?? ''] = (byNamespace[o.metadata?.namespace ?? ''] ?? 0) + 1;
      refs.push({
        apiVersion: `${crd.group}/${crd.version}`,
        kind: crd.kind,
        plural: crd.plural,
        name: o.metadata?.name ?? '',
        ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
      });
    }
    const holding = items
      .filter((o) => o.metadata?.deletionTimestamp)
      .map((o) => ({
        ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}),
        name: o.metadata?.name ?? '',
        finalizers: o.metadata?.finalizers ?? [],
      }));
    crds.push({ name: crd.name, kind: crd.kind, instances: items.length, byNamespace, holding });
  }
  let usedBy: CrdRemoval['usedBy'] = [];
  try {
    const csvs = (await client.listAll<ClusterServiceVersion>(CSV_TYPE, { labelSelector: '!olm.copiedFrom' })).items;
    usedBy = crdsInUse(
      crds.map((c) => c.name),
      csvs,
      { namespace: csv.metadata?.namespace ?? '', name: csv.metadata?.name ?? '' },
    );
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    problems.push(
      'you may not list ClusterServiceVersions in every namespace, so it cannot be checked that no other operator uses these CRDs',
    );
  }
  const allowed = await accessReview(client, 'delete', 'apiextensions.k8s.io', 'customresourcedefinitions');
  const instances = crds.reduce((n, c) => n + c.instances, 0);
  return {
    crds,
    instances,
    usedBy,
    problems,
    allowed,
    confirmation: instances ? instanceConfirmation(instances) : '',
    refs,
  };
}

export async function uninstallPreviewWithCrds(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<UninstallPreview> {
  const preview = await uninstallPreview(client, namespace, name);
  const { csv } = await load(client, namespace, name);
  const { refs: _refs, ...removal } = await crdRemoval(client, csv);
  void _refs;
  return { ...preview, crdRemoval: removal };
}

export async function uninstallPreview(client: KubeClient, namespace: string, name: string): Promise<UninstallPreview> {
  const { csv, sub, subs, group } = await load(client, namespace, name);
  const d = describeCsv(csv as unknown as Parameters<typeof describeCsv>[0], name);
  const targets = targetNamespacesOf(csv);
  const copies = !targets ? 0 : targets[0] === '' ? -1 : targets.filter((t) => t && t !== namespace).length;
  const operands = await listOperands(client, csv);
  const crds = ownedCrds(csv).map((c) => c.name);
  return {
    namespace,
    csv: name,
    displayName: d.displayName,
    ...(sub ? { subscription: sub.metadata?.name } : {}),
    copies,
    ...(d.uninstallMessage ? { uninstallMessage: d.uninstallMessage } : {}),
    operandDeleteDisabled: d.disableOperandDelete,
    removes: [
      ...(sub ? [`Subscription ${sub.metadata?.name}`] : []),
      `ClusterServiceVersion ${name}`,
      copies === -1
        ? 'its copies in every namespace'
        : copies > 0
          ? `its copies in ${copies} namespace${copies === 1 ? '' : 's'}`
          : '',
      "the operator's deployments, service accounts and roles (owned by the CSV)",
    ].filter(Boolean),
    stays: [
      ...(crds.length ? [`the CustomResourceDefinitions ${crds.join(', ')}`] : []),
      operands.total ? `${operands.total} operand${operands.total === 1 ? '' : 's'} (unless you delete them)` : '',
      group ? `OperatorGroup ${group.metadata?.name}` : '',
      `namespace ${namespace}`,
    ].filter(Boolean),
    operands,
    ...(group
      ? {
          operatorGroup: {
            name: group.metadata?.name ?? '',
            createdByConsole: group.metadata?.labels?.[CREATED_BY_LABEL] === 'olm-console',
            lastOperator: subs.every((s) => s === sub),
          },
        }
      : {}),
  };
}

/** What a person chooses in the uninstall dialog: the body of the uninstall and of its plan. */
export const UninstallBody = z.strictObject({
  deleteOperands: z.boolean().default(false),
  deleteOperatorGroup: z.boolean().default(false),
  deleteCrds: z.boolean().default(false),
  confirmation: z.string().max(64).optional(),
});

export interface UninstallOptions {
  deleteOperands: boolean;
  deleteOperatorGroup: boolean;
  /** Also delete the operator's CRDs, and with them every instance in the cluster. */
  deleteCrds?: boolean;
  /** The words the person typed: instanceConfirmation(n) for the n instances that go. */
  confirmation?: string;
  /** How long to wait for operands to go (their finalizers need the operator running). */
  operandTimeoutMs?: number;
}

async function del(
  client: KubeClient,
  t: ResourceType,
  name: string,
  namespace: string | undefined,
  propagationPolicy: 'Foreground' | 'Background',
): Promise<'deleted' | 'already-gone'> {
  try {
    await client.delete(t, name, { namespace, propagationPolicy });
    return 'deleted';
  } catch (err) {
    if (isKubeError(err, 404)) return 'already-gone';
    throw err;
  }
}

async function waitGone(client: KubeClient, refs: readonly OperandRef[], timeoutMs: number): Promise<OperandRef[]> {
  const deadline = Date.now() + timeoutMs;
  let left = [...refs];
  while (left.length > 0 && Date.now() < deadline) {
    const still: OperandRef[] = [];
    for (const r of left) {
      try {
        await client.get(
          {
            group: r.apiVersion.split('/')[0]!,
            version: r.apiVersion.split('/')[1]!,
            plural: r.plural,
            namespaced: true,
            kind: r.kind,
          },
          r.name,
          r.namespace,
        );
        still.push(r);
      } catch (err) {
        if (!isKubeError(err, 404)) throw err;
      }
    }
    left = still;
    if (left.length) await new Promise((res) => setTimeout(res, 250));
  }
  return left;
}

function kubectlDelete(kind: string, name: string, namespace?: string): string {
  return `kubectl delete ${kind.toLowerCase()} ${name}${namespace ? ` -n ${namespace}` : ''}`;
}

export async function uninstall(
  client: KubeClient,
  namespace: string,
  name: string,
  opts: UninstallOptions,
): Promise<{ preview: UninstallPreview; steps: UninstallStep[] }> {
  const preview = await uninstallPreview(client, namespace, name);
  if (opts.deleteOperands && preview.operandDeleteDisabled) {
    throw new ApiError(
      400,
      'BadRequest',
      `${preview.displayName} asks consoles not to delete its operands (console.openshift.io/disable-operand-delete); uninstall without deleting operands`,
    );
  }
  const steps: UninstallStep[] = [];
  const plan: { kind: string; name: string; namespace?: string; run: () => Promise<'deleted' | 'already-gone'> }[] = [];
  let operands = Object.values(preview.operands.byNamespace).flat();
  let removal: Awaited<ReturnType<typeof crdRemoval>> | undefined;
  if (opts.deleteCrds) {
    const { csv } = await load(client, namespace, name);
    removal = await crdRemoval(client, csv);
    if (removal.usedBy.length)
      throw new ApiError(
        409,
        'Conflict',
        `the CRDs stay: ${removal.usedBy.map((u) => `${u.namespace}/${u.csv} ${u.relation} ${u.crd}`).join('; ')}. Uninstall without removing the CRDs, or remove that operator first`,
        { usedBy: removal.usedBy },
      );
    if (removal.problems.length)
      throw new ApiError(403, 'Forbidden', `a complete removal cannot be checked: ${removal.problems.join('; ')}`);
    if (!removal.allowed.allowed)
      throw new ApiError(
        403,
        'Forbidden',
        `you may not delete CustomResourceDefinitions: ${removal.allowed.reason ?? 'the cluster refused'}`,
      );
    if (removal.instances > 0 && opts.confirmation !== removal.confirmation) {
      throw new ApiError(
        409,
        'Conflict',
        `deleting the CRDs deletes their ${removal.instances} instance${removal.instances === 1 ? '' : 's'} in the whole cluster: confirm by typing "${removal.confirmation}"`,
        { confirmation: removal.confirmation },
      );
    }
    if (removal.instances > 0 && preview.operandDeleteDisabled) {
      throw new ApiError(
        400,
        'BadRequest',
        `${preview.displayName} asks consoles not to delete its operands (console.openshift.io/disable-operand-delete); its CRDs can go only once their instances are gone`,
      );
    }
    // Every instance goes first, in every namespace, while the operator still runs their finalizers.
    operands = removal.refs;
  }
  if (opts.deleteOperands || opts.deleteCrds) {
    for (const o of operands)
      plan.push({
        kind: o.kind,
        name: o.name,
        namespace: o.namespace,
        run: () =>
          del(
            client,
            {
              group: o.apiVersion.split('/')[0]!,
              version: o.apiVersion.split('/')[1]!,
              plural: o.plural,
              namespaced: true,
              kind: o.kind,
            },
            o.name,
            o.namespace,
            'Foreground',
          ),
      });
  }
  const waitIndex = plan.length;
  if (preview.subscription)
    plan.push({
      kind: 'Subscription',
      name: preview.subscription,
      namespace,
      run: () => del(client, SUBSCRIPTION_TYPE, preview.subscription!, namespace, 'Background'),
    });
  plan.push({
    kind: 'ClusterServiceVersion',
    name,
    namespace,
    run: () => del(client, CSV_TYPE, name, namespace, 'Background'),
  });
  const og = preview.operatorGroup;
  if (opts.deleteOperatorGroup && og?.createdByConsole && og.lastOperator)
    plan.push({
      kind: 'OperatorGroup',
      name: og.name,
      namespace,
      run: () => del(client, OPERATOR_GROUP_TYPE, og.name, namespace, 'Background'),
    });

  for (const [i, step] of plan.entries()) {
    if (i === waitIndex && (opts.deleteOperands || opts.deleteCrds) && operands.length > 0) {
      const left = await waitGone(client, operands, opts.operandTimeoutMs ?? 60_000);
      if (left.length > 0) {
        const remaining = plan
          .slice(i)
          .map((s) => ({ kind: s.kind, name: s.name, namespace: s.namespace, outcome: 'not-done' as const }));
        throw new ApiError(
          504,
          'Timeout',
          `${left.length} operand${left.length === 1 ? ' is' : 's are'} still being deleted (${left.map((l) => `${l.kind} ${l.namespace ? `${l.namespace}/` : ''}${l.name}`).join(', ')}); the operator was left running so their finalizers can finish. When they are gone, finish with: ${remaining.map((r) => kubectlDelete(r.kind, r.name, r.namespace)).join('; ')}`,
          { steps: [...steps, ...remaining], remaining },
        );
      }
    }
    try {
      steps.push({ kind: step.kind, name: step.name, namespace: step.namespace, outcome: await step.run() });
    } catch (err) {
      const remaining = plan
        .slice(i + 1)
        .map((s) => ({ kind: s.kind, name: s.name, namespace: s.namespace, outcome: 'not-done' as const }));
      const failed: UninstallStep = {
        kind: step.kind,
        name: step.name,
        namespace: step.namespace,
        outcome: 'failed',
        message: (err as Error).message,
      };
      const code = isKubeError(err) ? err.code : 500;
      const finish = [step, ...plan.slice(i + 1)].map((s) => kubectlDelete(s.kind, s.name, s.namespace)).join('; ');
      throw new ApiError(
        code,
        isKubeError(err) ? err.reason : 'InternalError',
        `deleting ${step.kind} ${step.name} failed: ${(err as Error).message}. Done so far: ${steps.map((s) => `${s.kind} ${s.name}`).join(', ') || 'nothing'}. To finish by hand: ${finish}`,
        { steps: [...steps, failed, ...remaining] },
      );
    }
  }
  if (removal) {
    const crdSteps = removal.crds.map((c) => ({ kind: 'CustomResourceDefinition', name: c.name }));
    for (const [i, c] of crdSteps.entries()) {
      try {
        steps.push({ ...c, outcome: await del(client, CRD_TYPE, c.name, undefined, 'Background') });
      } catch (err) {
        const remaining = crdSteps.slice(i + 1).map((r) => ({ ...r, outcome: 'not-done' as const }));
        throw new ApiError(
          isKubeError(err) ? err.code : 500,
          isKubeError(err) ? err.reason : 'InternalError',
          `deleting CustomResourceDefinition ${c.name} failed: ${(err as Error).message}. The operator is uninstalled; to finish by hand: ${[c, ...crdSteps.slice(i + 1)].map((r) => `kubectl delete crd ${r.name}`).join('; ')}`,
          { steps: [...steps, { ...c, outcome: 'failed', message: (err as Error).message }, ...remaining] },
        );
      }
    }
  }
  return { preview, steps };
}
