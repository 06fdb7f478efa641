// Whether the approver may act on a Subscription's upgrade target, and if not why, in words a
// person can act on. A target is honoured only when all of these hold:
// - the console sealed exactly this value for this Subscription, less than 7 days ago
//   (upgrade-target-seal.ts);
// - the Subscription still follows the catalog and channel it followed when the target was set,
//   so a sealed target cannot be aimed at another catalog's CSV of the same name;
// - the console's record names it as the Subscription's live target (upgrade-target-record.ts),
//   so a target cancelled, reached or replaced is refused when its saved value is written back;
// - and, asked when the approver acts, the person who set it may still approve InstallPlans in
//   the namespace: the approver acts for them, never beyond the rights they hold now.
import type { KubeClient, KubeObject, ResourceType } from '../k8s/client';
import { readTarget, UPGRADE_TARGET_ANNOTATION, type UpgradeTarget } from '../olm/install/upgrade-target';
import { INSTALL_PLAN_TYPE } from '../olm/resources/install-plan';
import type { Subscription } from '../olm/resources/subscription';
import { sessionKey } from './context';
import { liveTargetOf, type TargetRecordData } from './upgrade-target-record';
import { TargetSeal } from './upgrade-target-seal';

/** The seal of this process's session key, which every replica shares (OLM_CONSOLE_SESSION_KEY). */
export function targetSeal(): TargetSeal {
  return TargetSeal.fromSessionKey(sessionKey());
}

export const subjectOf = (sub: Subscription) => ({
  namespace: sub.metadata?.namespace ?? '',
  name: sub.metadata?.name ?? '',
  uid: sub.metadata?.uid ?? '',
});

/** The target annotation as written, the target read from it, and why the approver refuses it if it does. */
export interface Judged {
  raw?: string;
  target?: UpgradeTarget;
  refused?: string;
}

export const NOT_LIVE =
  'it is not the live target of this Subscription: a target is used once, and this one was cancelled, ' +
  'reached or replaced by another (or the record of live targets, full, retired it), so writing its ' +
  'value back does not revive it: set a new target';

/** Why the Subscription no longer matches the catalog and channel the target was set on, if it does not. */
function moved(sub: Subscription, t: UpgradeTarget): string | undefined {
  const now = sub.spec;
  const fields: [string, string | undefined, string | undefined][] = [
    ['catalog', t.source, now.source],
    ["catalog's namespace", t.sourceNamespace, now.sourceNamespace],
    ['channel', t.channel, now.channel],
  ];
  const changed = fields
    .filter(([, was, is]) => (was ?? '') !== (is ?? ''))
    .map(([what, was, is]) => `${what} ${was || '(none)'} → ${is || '(none)'}`);
  if (!changed.length) return undefined;
  return (
    `the Subscription changed since the target was set (${changed.join(', ')}); a target holds only for ` +
    'the catalog and channel it was set on, where its version was checked: set it again'
  );
}

/** The Subscription's target judged against its seal, its catalog and channel, and the record of live targets. */
export function judgeTarget(sub: Subscription, seal: TargetSeal, record: TargetRecordData, now = Date.now()): Judged {
  const raw = sub.metadata?.annotations?.[UPGRADE_TARGET_ANNOTATION];
  if (!raw) return {};
  const target = readTarget(sub);
  if (!target) return { raw, refused: 'it is not a target the console wrote (JSON with csv, setBy, setAt and seal)' };
  const check = seal.check(subjectOf(sub), target, target.seal, now);
  if (!check.ok) return { raw, target, refused: check.reason };
  const change = moved(sub, target);
  if (change) return { raw, target, refused: change };
  const live = liveTargetOf(record, subjectOf(sub).uid);
  if (!target.id || live?.id !== target.id) return { raw, target, refused: NOT_LIVE };
  return { raw, target };
}

const SUBJECT_ACCESS_REVIEW_TYPE: ResourceType = {
  group: 'authorization.k8s.io',
  version: 'v1',
  plural: 'subjectaccessreviews',
  namespaced: false,
  kind: 'SubjectAccessReview',
};

interface ReviewStatus extends KubeObject {
  status?: { allowed?: boolean; reason?: string; evaluationError?: string };
}

/**
 * A SubjectAccessReview, asked with `client` (the approver's identity), of whether the person who
 * set the target — their username and the groups they were authenticated with then, as sealed —
 * may approve InstallPlans in `namespace` now: `update`, what setting a target and the console's
 * own approve route require. A binding removed since is seen here; so is a group's binding removed.
 * Not seen: a group the identity provider no longer gives them (the cluster keeps no list of a
 * person's groups), which is why a target also ends after 7 days.
 */
export async function setterReview(
  client: KubeClient,
  target: UpgradeTarget,
  namespace: string,
): Promise<{ allowed: true } | { allowed: false; reason: string }> {
  const review = await client.create<ReviewStatus>(SUBJECT_ACCESS_REVIEW_TYPE, {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      user: target.setBy,
      groups: target.groups ?? [],
      resourceAttributes: {
        verb: 'update',
        group: INSTALL_PLAN_TYPE.group,
        resource: INSTALL_PLAN_TYPE.plural,
        namespace,
      },
    },
  });
  if (review.status?.allowed === true) return { allowed: true };
  const why = review.status?.reason || review.status?.evaluationError || 'no rule allows it';
  return {
    allowed: false,
    reason:
      `${target.setBy}, who set it, may no longer approve InstallPlans in ${namespace} (${why}); ` +
      'the approver acts for the person who set a target, never beyond the rights they hold now',
  };
}
