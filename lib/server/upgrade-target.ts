// "Upgrade up to a version": the person sets (or cancels) a target on a Manual Subscription, as
// themselves; the console's approver (upgrade-target-approver.ts) approves the InstallPlans up to
// it for them. Setting one needs the right to approve InstallPlans in the namespace (the approver
// acts for the person, never beyond them); the console then seals the target to the Subscription,
// its catalog and channel (upgrade-target-seal.ts) and names it live in its own record
// (upgrade-target-record.ts). Cancelling retires it there first, so its saved value written back is
// refused. The record is written with the console's own identity, only after the person's own
// review: setting, their access review; cancelling, their right to patch the Subscription.
import { randomBytes } from 'node:crypto';
import type { KubeClient } from '../k8s/client';
import {
  decide,
  hopsTo,
  UPGRADE_TARGET_ANNOTATION,
  writeTarget,
  type UpgradeTarget,
} from '../olm/install/upgrade-target';
import { INSTALL_PLAN_TYPE } from '../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { ApiError } from './api-error';
import { consoleIdentityClient } from './context';
import { accessReview, whoAmIWithGroups } from './permissions';
import { UPGRADE_TARGET_REFUSED_ANNOTATION } from './upgrade-target-approver';
import { judgeTarget, NOT_LIVE, setterReview, subjectOf, targetSeal } from './upgrade-target-judge';
import { currentPlan, pathOf } from './upgrade-target-path';
import { liveTargetOf, withLive, withSpent, type TargetRecordData } from './upgrade-target-record';
import { upgradeTargetStore } from './upgrade-target-store';
import type { UpgradeTargetView } from '../api/upgrade-target';
export type { UpgradeTargetView } from '../api/upgrade-target';
export { approverPass, startUpgradeApprover, UPGRADE_TARGET_REFUSED_ANNOTATION } from './upgrade-target-approver';

/** Which identity approves for targets, from the environment; undefined: the feature is off. */
export function approverSetting(env: Record<string, string | undefined> = process.env): string | undefined {
  const v = env.OLM_CONSOLE_UPGRADE_APPROVER?.trim();
  return v ? v : undefined;
}

export const APPROVER_OFF =
  'no approver is configured: the cluster administrator sets OLM_CONSOLE_UPGRADE_APPROVER (docs/deploy.md, "Environment") before targets can be set';

/** The approver's own client, for the view's review of the setter's rights; made once a process. */
let approverForView: Promise<KubeClient> | undefined;

/** The target judged as the approver would judge it now (the record is read only if there is a target). */
async function judgedNow(sub: Subscription): Promise<{ target?: UpgradeTarget; refused?: string }> {
  if (!sub.metadata?.annotations?.[UPGRADE_TARGET_ANNOTATION]) return {};
  let record: TargetRecordData = {};
  let unreadable: string | undefined;
  try {
    record = await upgradeTargetStore().read();
  } catch (err) {
    unreadable = (err as Error).message;
  }
  const { target, refused } = judgeTarget(sub, targetSeal(), record);
  if (unreadable && refused === NOT_LIVE) return { target, refused: `it cannot be told live: ${unreadable}` };
  return { target, ...(refused ? { refused } : {}) };
}

export async function upgradeTargetView(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<UpgradeTargetView> {
  const sub = await client.get<Subscription>(SUBSCRIPTION_TYPE, name, namespace);
  const { target, refused } = await judgedNow(sub);
  const { steps, problem } = await pathOf(client, sub);
  const setting = approverSetting();
  const view: UpgradeTargetView = {
    subscription: {
      namespace,
      name,
      ...(sub.status?.installedCSV ? { installedCSV: sub.status.installedCSV } : {}),
      approval: sub.spec.installPlanApproval ?? 'Automatic',
    },
    ...(target ? { target } : {}),
    ...(refused ? { refused } : {}),
    path: steps,
    ...(problem ? { pathProblem: problem } : {}),
    approverConfigured: !!setting,
  };
  if (!target || refused) return view;
  const h = hopsTo(steps, target.csv);
  const hops = 'hops' in h ? h.hops : [];
  const verdict =
    sub.status?.installedCSV === target.csv
      ? ({ action: 'reached' } as const)
      : 'error' in h
        ? ({ action: 'wait', reason: h.error } as const)
        : decide(sub, target, hops, await currentPlan(client, sub));
  if (verdict.action === 'approve' && setting) {
    // What the approver will ask before it approves, asked now, so the page does not promise it.
    approverForView ??= approverClient(setting);
    // Its own failure is not the person's: a 403 here is the approver's identity's, so it is said so.
    const review = await setterReview(await approverForView, target, namespace).catch((err: Error) => ({
      allowed: false as const,
      reason: `the approver cannot ask whether ${target.setBy} may still approve InstallPlans: ${err.message}`,
    }));
    if (!review.allowed) return { ...view, refused: review.reason };
  }
  return { ...view, hops, verdict };
}

/**
 * Sets the target as the person, who must be allowed to approve the namespace's InstallPlans
 * themselves (the approver acts for them, never beyond them), sealed to this Subscription, its
 * catalog and channel, so the approver knows the console checked that, and named live in the
 * console's record. Refused on an Automatic Subscription (OLM goes to the head by itself) and for
 * a version off the update path.
 */
export async function setUpgradeTarget(
  client: KubeClient,
  namespace: string,
  name: string,
  csv: string,
): Promise<UpgradeTargetView> {
  if (!approverSetting()) throw new ApiError(409, 'Conflict', APPROVER_OFF);
  const sub = await client.get<Subscription>(SUBSCRIPTION_TYPE, name, namespace);
  if (sub.spec.installPlanApproval !== 'Manual')
    throw new ApiError(
      409,
      'Conflict',
      `Subscription ${name} has Automatic approval: OLM upgrades it to the channel head by itself; change its approval to Manual first`,
    );
  const { steps, problem } = await pathOf(client, sub);
  const h = hopsTo(steps, csv);
  if ('error' in h) throw new ApiError(409, 'Conflict', problem ? `${h.error}: ${problem}` : h.error);
  const may = await accessReview(client, 'update', INSTALL_PLAN_TYPE.group, INSTALL_PLAN_TYPE.plural, namespace);
  if (!may.allowed)
    throw new ApiError(
      403,
      'Forbidden',
      `a target approves InstallPlans in ${namespace} for you, and you may not approve them yourself: ${may.reason}`,
    );
  const { username, groups } = await whoAmIWithGroups(client);
  // The approver asks again, by this name, whether they may still approve: a made-up name could
  // be somebody else's.
  if (!username)
    throw new ApiError(
      403,
      'Forbidden',
      'the cluster does not say who you are (SelfSubjectReview), so the approver could not check your rights again',
    );
  const setAt = new Date();
  const { source, sourceNamespace, channel } = sub.spec;
  const id = randomBytes(16).toString('base64url');
  const fields = { csv, setBy: username, groups, setAt: setAt.toISOString(), id, source, sourceNamespace };
  const sealed = { ...fields, ...(channel ? { channel } : {}) };
  // A Subscription deleted and made again meanwhile has another uid: the approver refuses this seal on it.
  const target: UpgradeTarget = { ...sealed, seal: targetSeal().sign(subjectOf(sub), sealed) };
  const { uid } = subjectOf(sub);
  // Live before it is written, so that no pass sees the value without its entry; naming it retires
  // the target it replaces, whose value written back is then refused.
  const store = upgradeTargetStore();
  const { before } = await store.change((d) => withLive(d, { uid, id, setAt: setAt.getTime(), namespace }));
  const annotations = { [UPGRADE_TARGET_ANNOTATION]: writeTarget(target), [UPGRADE_TARGET_REFUSED_ANNOTATION]: null };
  try {
    await client.patch(SUBSCRIPTION_TYPE, name, { metadata: { annotations } }, { namespace, type: 'merge' });
  } catch (err) {
    // The person may not patch it (or it went): the target still on it stays the live one. If
    // this cannot be written, that target is refused as replaced: less is approved, never more.
    const previous = liveTargetOf(before, uid);
    const restore = (d: TargetRecordData) =>
      liveTargetOf(d, uid)?.id !== id ? d : previous ? withLive(d, previous) : withSpent(d, uid, id);
    await store.change(restore).catch(() => undefined);
    throw err;
  }
  return upgradeTargetView(client, namespace, name);
}

/**
 * Cancels the target: retired in the record first, so that once the annotation is gone a saved
 * copy of its value is already refused. The record is written with the console's identity, so the
 * person's right to patch the Subscription is asked of the cluster before it is.
 */
export async function clearUpgradeTarget(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<UpgradeTargetView> {
  const sub = await client.get<Subscription>(SUBSCRIPTION_TYPE, name, namespace);
  const may = await accessReview(client, 'patch', SUBSCRIPTION_TYPE.group, SUBSCRIPTION_TYPE.plural, namespace, name);
  if (!may.allowed)
    throw new ApiError(
      403,
      'Forbidden',
      `cancelling a target patches Subscription ${name}, and you may not: ${may.reason}`,
    );
  try {
    await upgradeTargetStore().change((d) => withSpent(d, subjectOf(sub).uid));
  } catch (err) {
    // With the approver off its record may not be readable (the component grants that), and
    // nothing approves meanwhile: the person can still remove the annotation.
    if (approverSetting()) throw err;
  }
  const annotations = { [UPGRADE_TARGET_ANNOTATION]: null, [UPGRADE_TARGET_REFUSED_ANNOTATION]: null };
  await client.patch(SUBSCRIPTION_TYPE, name, { metadata: { annotations } }, { namespace, type: 'merge' });
  return upgradeTargetView(client, namespace, name);
}

/**
 * The approver's client: `console` is the console's own identity (its kubeconfig's user, or the
 * pod's service account in-cluster); `kubeconfig:PATH` a kubeconfig of its own, for a narrower
 * identity than the console's.
 */
export async function approverClient(
  setting: string,
  env: Record<string, string | undefined> = process.env,
): Promise<KubeClient> {
  if (setting === 'console') return consoleIdentityClient(env);
  if (setting.startsWith('kubeconfig:')) {
    const [{ KubeConfig }, { KubeClient }] = await Promise.all([
      import('@kubernetes/client-node'),
      import('../k8s/client'),
    ]);
    const kc = new KubeConfig();
    kc.loadFromFile(setting.slice('kubeconfig:'.length));
    return new KubeClient(kc);
  }
  throw new Error(`OLM_CONSOLE_UPGRADE_APPROVER is "${setting}": it must be "console" or "kubeconfig:PATH"`);
}
