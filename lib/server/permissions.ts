// What the person using the console may do, asked of the cluster with SelfSubjectAccessReview
// (never guessed): the UI hides or disables each action with the cluster's reason.
import { KubeClient, type KubeObject } from '../k8s/client';
import { SELF_SUBJECT_ACCESS_REVIEW_TYPE, SELF_SUBJECT_REVIEW_TYPE } from '../k8s/core-kinds';

export type ConsoleAction =
  'install' | 'approveInstallPlan' | 'changeSubscription' | 'uninstall' | 'createOperatorGroup' | 'createNamespace';

interface Check {
  verb: string;
  group: string;
  resource: string;
  namespaced: boolean;
}

/** The API calls each console action makes; all must be allowed. */
const ACTIONS: Record<ConsoleAction, { label: string; checks: Check[] }> = {
  install: {
    label: 'install an operator',
    checks: [{ verb: 'create', group: 'operators.coreos.com', resource: 'subscriptions', namespaced: true }],
  },
  approveInstallPlan: {
    label: 'approve an InstallPlan',
    checks: [{ verb: 'patch', group: 'operators.coreos.com', resource: 'installplans', namespaced: true }],
  },
  changeSubscription: {
    label: 'change a subscription',
    checks: [{ verb: 'patch', group: 'operators.coreos.com', resource: 'subscriptions', namespaced: true }],
  },
  uninstall: {
    label: 'uninstall an operator',
    checks: [
      { verb: 'delete', group: 'operators.coreos.com', resource: 'subscriptions', namespaced: true },
      { verb: 'delete', group: 'operators.coreos.com', resource: 'clusterserviceversions', namespaced: true },
    ],
  },
  createOperatorGroup: {
    label: 'create an OperatorGroup',
    checks: [{ verb: 'create', group: 'operators.coreos.com', resource: 'operatorgroups', namespaced: true }],
  },
  createNamespace: {
    label: 'create a namespace',
    checks: [{ verb: 'create', group: '', resource: 'namespaces', namespaced: false }],
  },
};

export interface Permission {
  action: ConsoleAction;
  allowed: boolean;
  /** Why not, in the cluster's words (or ours when the cluster gave none). */
  reason?: string;
}

interface ReviewStatus extends KubeObject {
  status?: { allowed?: boolean; denied?: boolean; reason?: string; evaluationError?: string };
}

/** One SelfSubjectAccessReview: may this person do `verb` on `resource` (in `namespace`)? */
export async function accessReview(
  client: KubeClient,
  verb: string,
  group: string,
  resource: string,
  namespace?: string,
  name?: string,
): Promise<{ allowed: boolean; reason?: string }> {
  const review = await client.create<ReviewStatus>(SELF_SUBJECT_ACCESS_REVIEW_TYPE, {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: {
      resourceAttributes: { verb, group, resource, ...(namespace ? { namespace } : {}), ...(name ? { name } : {}) },
    },
  });
  const allowed = review.status?.allowed === true;
  const where = namespace ? ` in namespace ${namespace}` : '';
  return allowed
    ? { allowed }
    : {
        allowed,
        reason: review.status?.reason || review.status?.evaluationError || `you may not ${verb} ${resource}${where}`,
      };
}

export async function consolePermissions(client: KubeClient, namespace: string): Promise<Permission[]> {
  const ask = async (c: Check) => {
    const r = await accessReview(client, c.verb, c.group, c.resource, c.namespaced ? namespace : undefined);
    return { check: c, allowed: r.allowed, reason: r.reason };
  };
  const entries = Object.entries(ACTIONS) as [ConsoleAction, (typeof ACTIONS)[ConsoleAction]][];
  return Promise.all(
    entries.map(async ([action, def]) => {
      const answers = await Promise.all(def.checks.map(ask));
      const denied = answers.find((a) => !a.allowed);
      if (!denied) return { action, allowed: true };
      const where = denied.check.namespaced ? ` in namespace ${namespace}` : '';
      return {
        action,
        allowed: false,
        reason:
          denied.reason ||
          `you may not ${denied.check.verb} ${denied.check.resource}${where}, which is needed to ${def.label}`,
      };
    }),
  );
}

/** Who the client acts as, by the cluster's SelfSubjectReview ('' when it says nothing). */
export async function whoAmI(client: KubeClient): Promise<string> {
  return (await whoAmIWithGroups(client)).username;
}

/** The user and groups the API server authenticated the client's credential as (SelfSubjectReview). */
export async function whoAmIWithGroups(client: KubeClient): Promise<{ username: string; groups: string[] }> {
  const r = await client.create<KubeObject & { status?: { userInfo?: { username?: string; groups?: string[] } } }>(
    SELF_SUBJECT_REVIEW_TYPE,
    { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
  );
  return { username: r.status?.userInfo?.username ?? '', groups: r.status?.userInfo?.groups ?? [] };
}
