// OperatorConditions read as the person, and an administrator's override set or removed with the
// person's identity (the rules are lib/olm/resources/operator-condition-overrides.ts).
//
// Lost updates: the person says which override of that type they saw (`seen`); the change is
// computed on the object as read just now and sent as a JSON merge patch carrying that read's
// resourceVersion, so nothing written between the read and the patch is overwritten. OLM writes
// the status all the time, and the operator its own conditions: a 409 from those is read again
// and retried, while a change to the same override by someone else is a 409 for the person.
import { z } from 'zod';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import { OPERATOR_CONDITION_TYPE, type OperatorCondition } from '../olm/resources/operator-condition';
import {
  CONDITION_MESSAGE_MAX,
  CONDITION_REASON_MAX,
  CONDITION_REASON_PATTERN,
  CONDITION_TYPE_MAX,
  CONDITION_TYPE_PATTERN,
  operatorConditionRows,
  overrideConflict,
  planOverrideChange,
  upgradeVerdict,
  type OverrideChange,
  type OverridePlan,
  type SeenOverride,
} from '../olm/resources/operator-condition-overrides';
import type {
  Allowed,
  OperatorConditionsList,
  OperatorConditionView,
  OverrideApplied,
} from '../api/operator-conditions';
import { ApiError } from './api-error';
import { accessReview } from './permissions';

export type OverrideRequest = OverrideChange & { seen: SeenOverride };

// The body of the plan and apply routes. metav1.Condition's rules (the CRD's schema) are checked
// here, so a person learns what to fix before the API server says it in its own words.
const Status = z.enum(['True', 'False', 'Unknown'], { message: 'must be True, False or Unknown' });
const Type = z
  .string()
  .min(1, 'must not be empty')
  .max(CONDITION_TYPE_MAX, `must be at most ${CONDITION_TYPE_MAX} characters`)
  .regex(
    CONDITION_TYPE_PATTERN,
    'must be a condition type such as Upgradeable: letters, digits, "-", "_" and ".", optionally after a domain and "/"',
  );
const Reason = z
  .string()
  .min(1, 'must not be empty: one CamelCase word saying why, such as KnownIssue')
  .max(CONDITION_REASON_MAX, `must be at most ${CONDITION_REASON_MAX} characters`)
  .regex(
    CONDITION_REASON_PATTERN,
    'must be one CamelCase word such as KnownIssue (letters, digits, "_", "," and ":", starting with a letter), as Kubernetes conditions require',
  );
const Message = z
  .string()
  .trim()
  .min(1, 'must not be empty: say what you know that the operator does not')
  .max(CONDITION_MESSAGE_MAX, `must be at most ${CONDITION_MESSAGE_MAX} characters`);
const Seen = z.union(
  [
    z.null(),
    z.strictObject({
      status: Status,
      reason: z.string().max(CONDITION_REASON_MAX).optional(),
      message: z.string().max(CONDITION_MESSAGE_MAX).optional(),
    }),
  ],
  {
    message: 'say which override of this type you saw: null for none, or { status, reason, message } as it was shown',
  },
);
export const OverrideBody = z.discriminatedUnion(
  'action',
  [
    z.strictObject({
      action: z.literal('set'),
      type: Type,
      status: Status,
      reason: Reason,
      message: Message,
      seen: Seen,
    }),
    z.strictObject({ action: z.literal('remove'), type: Type, seen: Seen }),
  ],
  { message: 'action must be "set" (with type, status, reason, message) or "remove" (with type)' },
);

/** May the person set or remove overrides in the namespace (the patch the console sends)? */
export async function canOverride(client: KubeClient, namespace: string): Promise<Allowed> {
  return accessReview(client, 'patch', 'operators.coreos.com', 'operatorconditions', namespace);
}

function viewOf(oc: OperatorCondition, namespace: string, name: string, permission: Allowed): OperatorConditionView {
  return {
    namespace,
    name,
    state: 'present',
    resourceVersion: oc.metadata?.resourceVersion,
    generation: oc.metadata?.generation,
    rows: operatorConditionRows(oc),
    upgrade: upgradeVerdict(oc),
    canOverride: permission,
  };
}

export async function operatorConditionView(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<OperatorConditionView> {
  const [read, permission] = await Promise.all([
    client.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, name, namespace).then(
      (oc) => ({ oc }),
      (err: unknown) => ({ err }),
    ),
    canOverride(client, namespace),
  ]);
  if ('oc' in read) return viewOf(read.oc, namespace, name, permission);
  const err = read.err;
  if (isKubeError(err, 404)) {
    return {
      namespace,
      name,
      state: 'absent',
      rows: [],
      canOverride: permission,
      message: `OLM keeps no OperatorCondition ${name} in ${namespace}: it makes one for each operator's own CSV (not for copies), once it reconciles the CSV`,
    };
  }
  if (isKubeError(err, 403))
    return { namespace, name, state: 'forbidden', rows: [], canOverride: permission, message: err.message };
  throw err;
}

export async function listOperatorConditions(
  client: KubeClient,
  namespace: string | undefined,
): Promise<OperatorConditionsList> {
  const list = await client.listAll<OperatorCondition>(OPERATOR_CONDITION_TYPE, namespace ? { namespace } : {});
  return {
    namespace: namespace ?? null,
    operatorConditions: list.items
      .map((oc) => ({
        namespace: oc.metadata?.namespace ?? '',
        name: oc.metadata?.name ?? '',
        rows: operatorConditionRows(oc),
        upgrade: upgradeVerdict(oc),
      }))
      .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name)),
  };
}

async function readChecked(
  client: KubeClient,
  namespace: string,
  name: string,
  req: OverrideRequest,
): Promise<OperatorCondition> {
  let oc: OperatorCondition;
  try {
    oc = await client.get<OperatorCondition>(OPERATOR_CONDITION_TYPE, name, namespace);
  } catch (err) {
    if (isKubeError(err, 404))
      throw new ApiError(
        404,
        'NotFound',
        `OperatorCondition ${namespace}/${name} does not exist: OLM makes one for each operator's own CSV (not for copies); overrides are set on the operator's, in its own namespace`,
      );
    throw err;
  }
  const conflict = overrideConflict(oc, req.type, req.seen);
  if (conflict)
    throw new ApiError(409, 'Conflict', conflict, {
      resourceVersion: oc.metadata?.resourceVersion,
      overrides: oc.spec?.overrides ?? [],
    });
  return oc;
}

function changeOf(req: OverrideRequest): OverrideChange {
  return req.action === 'set'
    ? { action: 'set', type: req.type, status: req.status, reason: req.reason, message: req.message }
    : { action: 'remove', type: req.type };
}

/** The plan, on the object as it is now: nothing is written. */
export async function planOverride(
  client: KubeClient,
  namespace: string,
  name: string,
  req: OverrideRequest,
  now = new Date(),
): Promise<OverridePlan & { resourceVersion?: string }> {
  const oc = await readChecked(client, namespace, name, req);
  return { ...planOverrideChange(oc, changeOf(req), now), resourceVersion: oc.metadata?.resourceVersion };
}

/** Plans again on a fresh read and sends the merge patch as the person; see the top of the file. */
export async function applyOverride(
  client: KubeClient,
  namespace: string,
  name: string,
  req: OverrideRequest,
): Promise<OverrideApplied> {
  for (let attempt = 1; ; attempt++) {
    const oc = await readChecked(client, namespace, name, req);
    const plan = planOverrideChange(oc, changeOf(req), new Date());
    const rv = oc.metadata?.resourceVersion ?? '';
    if (plan.noChange)
      return { plan, sentAt: rv, resourceVersion: rv, view: viewOf(oc, namespace, name, { allowed: true }) };
    try {
      const written = await client.patch<OperatorCondition>(
        OPERATOR_CONDITION_TYPE,
        name,
        { metadata: { resourceVersion: rv }, ...plan.patch },
        { namespace, type: 'merge' },
      );
      return {
        plan,
        sentAt: rv,
        resourceVersion: written.metadata?.resourceVersion,
        view: viewOf(written, namespace, name, { allowed: true }),
      };
    } catch (err) {
      // Written in between (OLM's status, the operator's conditions, or the same override by
      // someone else, which the next read turns into the person's 409).
      if (!isKubeError(err, 409) || attempt >= 5) throw err;
    }
  }
}
