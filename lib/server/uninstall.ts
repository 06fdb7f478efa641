// Uninstalling an operator, as the person: first what will go and what will stay (operands
// listed by namespace), then the deletes in the order that lets finalizers work — operands
// (foreground, waited for while the operator still runs), the Subscription, the CSV (its copies
// and deployments go with it), and the OperatorGroup the console created, when asked and when
// no other operator uses it. A failure stops there and says what remains and how to finish.
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import { CREATED_BY_LABEL } from '../olm/install/plan';
import { CSV_TYPE, isCopiedCsv, operatorNamespaceOf, ownedCrds, targetNamespacesOf, type ClusterServiceVersion } from '../olm/resources/cluster-service-version';
import type { ResourceType } from '../olm/resources/common';
import { describeCsv } from '../olm/resources/csv-description';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import type { OperandRef, UninstallPreview, UninstallStep } from '../api/operators';
import { ApiError } from './api-error';



async function listOperands(client: KubeClient, csv: ClusterServiceVersion): Promise<UninstallPreview['operands']> {
  const targets = targetNamespacesOf(csv) ?? [csv.metadata?.namespace ?? ''];
  const all = targets.length === 1 && targets[0] === '';
  const namespaces = all ? [undefined] : [...new Set([...targets.filter(Boolean), csv.metadata?.namespace ?? ''])];
  const byNamespace: Record<string, OperandRef[]> = {};
  const problems: string[] = [];
  let total = 0;
  for (const crd of ownedCrds(csv)) {
    const type: ResourceType = { group: crd.group, version: crd.version, plural: crd.plural, namespaced: true, kind: crd.kind };
    for (const ns of namespaces) {
      try {
        const items = (await client.listAll<{ metadata?: { name?: string; namespace?: string } }>(type, ns ? { namespace: ns } : {})).items;
        for (const o of items) {
          const key = o.metadata?.namespace ?? '';
          (byNamespace[key] ??= []).push({ apiVersion: `${crd.group}/${crd.version}`, kind: crd.kind, plural: crd.plural, name: o.metadata?.name ?? '', ...(o.metadata?.namespace ? { namespace: o.metadata.namespace } : {}) });
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

async function load(client: KubeClient, namespace: string, name: string): Promise<{ csv: ClusterServiceVersion; sub?: Subscription; subs: Subscription[]; group?: OperatorGroup }> {
  const csv = await client.get<ClusterServiceVersion>(CSV_TYPE, name, namespace);
  if (isCopiedCsv(csv)) {
    throw new ApiError(400, 'BadRequest', `${name} in ${namespace} is OLM's copy of the operator installed in ${operatorNamespaceOf(csv)}; uninstall it there (copies go with it)`);
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
      copies === -1 ? 'its copies in every namespace' : copies > 0 ? `its copies in ${copies} namespace${copies === 1 ? '' : 's'}` : '',
      'the operator\'s deployments, service accounts and roles (owned by the CSV)',
    ].filter(Boolean),
    stays: [
      ...(crds.length ? [`the CustomResourceDefinitions ${crds.join(', ')}`] : []),
      operands.total ? `${operands.total} operand${operands.total === 1 ? '' : 's'} (unless you delete them)` : '',
      group ? `OperatorGroup ${group.metadata?.name}` : '',
      `namespace ${namespace}`,
    ].filter(Boolean),
    operands,
    ...(group
      ? { operatorGroup: { name: group.metadata?.name ?? '', createdByConsole: group.metadata?.labels?.[CREATED_BY_LABEL] === 'olm-console', lastOperator: subs.every((s) => s === sub) } }
      : {}),
  };
}


export interface UninstallOptions {
  deleteOperands: boolean;
  deleteOperatorGroup: boolean;
  /** How long to wait for operands to go (their finalizers need the operator running). */
  operandTimeoutMs?: number;
}

async function del(client: KubeClient, t: ResourceType, name: string, namespace: string | undefined, propagationPolicy: 'Foreground' | 'Background'): Promise<'deleted' | 'already-gone'> {
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
        await client.get({ group: r.apiVersion.split('/')[0]!, version: r.apiVersion.split('/')[1]!, plural: r.plural, namespaced: true, kind: r.kind }, r.name, r.namespace);
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

export async function uninstall(client: KubeClient, namespace: string, name: string, opts: UninstallOptions): Promise<{ preview: UninstallPreview; steps: UninstallStep[] }> {
  const preview = await uninstallPreview(client, namespace, name);
  if (opts.deleteOperands && preview.operandDeleteDisabled) {
    throw new ApiError(400, 'BadRequest', `${preview.displayName} asks consoles not to delete its operands (console.openshift.io/disable-operand-delete); uninstall without deleting operands`);
  }
  const steps: UninstallStep[] = [];
  const plan: { kind: string; name: string; namespace?: string; run: () => Promise<'deleted' | 'already-gone'> }[] = [];
  const operands = Object.values(preview.operands.byNamespace).flat();
  if (opts.deleteOperands) {
    for (const o of operands) plan.push({ kind: o.kind, name: o.name, namespace: o.namespace, run: () => del(client, { group: o.apiVersion.split('/')[0]!, version: o.apiVersion.split('/')[1]!, plural: o.plural, namespaced: true, kind: o.kind }, o.name, o.namespace, 'Foreground') });
  }
  const waitIndex = plan.length;
  if (preview.subscription) plan.push({ kind: 'Subscription', name: preview.subscription, namespace, run: () => del(client, SUBSCRIPTION_TYPE, preview.subscription!, namespace, 'Background') });
  plan.push({ kind: 'ClusterServiceVersion', name, namespace, run: () => del(client, CSV_TYPE, name, namespace, 'Background') });
  const og = preview.operatorGroup;
  if (opts.deleteOperatorGroup && og?.createdByConsole && og.lastOperator) plan.push({ kind: 'OperatorGroup', name: og.name, namespace, run: () => del(client, OPERATOR_GROUP_TYPE, og.name, namespace, 'Background') });

  for (const [i, step] of plan.entries()) {
    if (i === waitIndex && opts.deleteOperands && operands.length > 0) {
      const left = await waitGone(client, operands, opts.operandTimeoutMs ?? 60_000);
      if (left.length > 0) {
        const remaining = plan.slice(i).map((s) => ({ kind: s.kind, name: s.name, namespace: s.namespace, outcome: 'not-done' as const }));
        throw new ApiError(504, 'Timeout', `${left.length} operand${left.length === 1 ? ' is' : 's are'} still being deleted (${left.map((l) => `${l.kind} ${l.namespace ? `${l.namespace}/` : ''}${l.name}`).join(', ')}); the operator was left running so their finalizers can finish. When they are gone, finish with: ${remaining.map((r) => kubectlDelete(r.kind, r.name, r.namespace)).join('; ')}`, { steps: [...steps, ...remaining], remaining });
      }
    }
    try {
      steps.push({ kind: step.kind, name: step.name, namespace: step.namespace, outcome: await step.run() });
    } catch (err) {
      const remaining = plan.slice(i + 1).map((s) => ({ kind: s.kind, name: s.name, namespace: s.namespace, outcome: 'not-done' as const }));
      const failed: UninstallStep = { kind: step.kind, name: step.name, namespace: step.namespace, outcome: 'failed', message: (err as Error).message };
      const code = isKubeError(err) ? err.code : 500;
      const finish = [step, ...plan.slice(i + 1)].map((s) => kubectlDelete(s.kind, s.name, s.namespace)).join('; ');
      throw new ApiError(code, isKubeError(err) ? err.reason : 'InternalError', `deleting ${step.kind} ${step.name} failed: ${(err as Error).message}. Done so far: ${steps.map((s) => `${s.kind} ${s.name}`).join(', ') || 'nothing'}. To finish by hand: ${finish}`, { steps: [...steps, failed, ...remaining] });
    }
  }
  return { preview, steps };
}
