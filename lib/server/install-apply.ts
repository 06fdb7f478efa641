// Applying an install plan as the person, in order — Namespace, service account and its rights,
// OperatorGroup, Subscription, then the Console's plugins — undoing what this request created when
// a later write fails, so a failed install leaves nothing half-made.
import type { KubeClient } from '../k8s/client';
import { isKubeError, KubeError } from '../k8s/errors';
import { type InstallPlanResult, type PlannedObject } from '../olm/install/plan';
import type { ResourceType } from '../olm/resources/common';
import { OPERATOR_GROUP_TYPE } from '../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE } from '../olm/resources/subscription';
import { ApiError } from './api-error';
import { CONSOLE_OPERATOR_TYPE, enableConsolePlugins } from './openshift-install';
import { NAMESPACE_TYPE, SERVICE_ACCOUNT_TYPE, rbacType } from '../k8s/core-kinds';
import { CLUSTER_EXTENSION_TYPE } from './olm-v1/resources';

const TYPES: Record<PlannedObject['kind'], ResourceType> = {
  Namespace: NAMESPACE_TYPE,
  ServiceAccount: SERVICE_ACCOUNT_TYPE,
  Role: rbacType('Role'),
  RoleBinding: rbacType('RoleBinding'),
  ClusterRole: rbacType('ClusterRole'),
  ClusterRoleBinding: rbacType('ClusterRoleBinding'),
  OperatorGroup: OPERATOR_GROUP_TYPE,
  Subscription: SUBSCRIPTION_TYPE,
  Console: CONSOLE_OPERATOR_TYPE,
  ClusterExtension: CLUSTER_EXTENSION_TYPE,
};

export interface ObjectRef {
  kind: PlannedObject['kind'];
  name: string;
  namespace?: string;
}

export interface ApplyResult {
  created: ObjectRef[];
  reused: ObjectRef[];
  /** Existing objects changed (Console `cluster`'s plugins). */
  changed: ObjectRef[];
}

const refOf = (o: PlannedObject): ObjectRef => ({
  kind: o.kind,
  name: o.name,
  ...(o.namespace ? { namespace: o.namespace } : {}),
});

function describe(r: ObjectRef): string {
  return `${r.kind} ${r.namespace ? `${r.namespace}/` : ''}${r.name}`;
}

/**
 * Creates the plan's objects in order; the one change of an existing object (Console `cluster`'s
 * plugins) is planned last, so when it fails the objects created before it are removed as for any
 * failure, and when anything before it fails it has not been made. A Namespace that appeared meanwhile is used as is; any
 * other failure deletes what this call created, newest first, and reports the failure with
 * what was undone (and anything that could not be). Each create and delete has already been
 * sent again after transient failures (lib/k8s/retry.ts): a failure here is final. A create
 * whose lost answer had in fact made the object comes back as made, with its uid, so it is
 * rolled back like the others.
 */
export async function applyPlan(client: KubeClient, plan: Pick<InstallPlanResult, 'objects'>): Promise<ApplyResult> {
  const created: { ref: ObjectRef; uid?: string }[] = [];
  const reused: ObjectRef[] = [];
  const changed: ObjectRef[] = [];
  for (const o of plan.objects) {
    if (o.action === 'reuse') {
      reused.push(refOf(o));
      continue;
    }
    try {
      if (o.action === 'patch') {
        await enableConsolePlugins(client, o.adds ?? []);
        changed.push(refOf(o));
        continue;
      }
      const made = await client.create<{ metadata?: { uid?: string } }>(TYPES[o.kind], o.object, {
        namespace: o.namespace,
      });
      created.push({ ref: refOf(o), uid: made.metadata?.uid });
    } catch (err) {
      if (o.kind === 'Namespace' && isKubeError(err, 409)) {
        reused.push(refOf(o));
        continue;
      }
      const undone: ObjectRef[] = [];
      const leftBehind: { ref: ObjectRef; message: string }[] = [];
      for (const c of [...created].reverse()) {
        try {
          await client.delete(TYPES[c.ref.kind], c.ref.name, {
            namespace: c.ref.namespace,
            uid: c.uid,
            propagationPolicy: 'Background',
          });
          undone.push(c.ref);
        } catch (delErr) {
          if (isKubeError(delErr, 404)) undone.push(c.ref);
          else leftBehind.push({ ref: c.ref, message: (delErr as Error).message });
        }
      }
      const base = err instanceof KubeError ? err : undefined;
      const verb = o.action === 'patch' ? 'changing' : 'creating';
      const what = `${verb} ${describe(refOf(o))} failed: ${(err as Error).message}`;
      const rolled = undone.length
        ? `; removed what this install had created (${undone.map(describe).join(', ')})`
        : '';
      const left = leftBehind.length
        ? `; could not remove ${leftBehind.map((l) => `${describe(l.ref)} (${l.message})`).join(', ')}: delete it by hand`
        : '';
      throw new ApiError(base?.code ?? 500, base?.reason ?? 'InternalError', `${what}${rolled}${left}`, {
        step: `${verb} ${describe(refOf(o))}`,
        failed: refOf(o),
        rolledBack: undone,
        leftBehind: leftBehind.map((l) => l.ref),
      });
    }
  }
  return { created: created.map((c) => c.ref), reused, changed };
}
