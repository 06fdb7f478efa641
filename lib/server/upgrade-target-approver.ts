// The approver of upgrade targets: with the identity the cluster administrator configured
// (OLM_CONSOLE_UPGRADE_APPROVER), it approves each InstallPlan whose CSVs are all hops up to a
// Subscription's target, records an Event naming the person who set it, and removes the target
// once it is installed. It acts only on a target upgrade-target-judge.ts honours — sealed by the
// console, on the catalog and channel it was set on, live in the console's record — and, at the
// moment it approves, only if a SubjectAccessReview says the person who set it may still approve
// InstallPlans there. Anything else is refused, with a Warning Event once per annotation value.
// Every replica runs it: each approval is a PUT at the plan's resourceVersion, so only one
// replica's succeeds, and only that one records the Event.
import type { KubeClient } from '../k8s/client';
import { EVENT_TYPE } from '../k8s/core-kinds';
import { isKubeError } from '../k8s/errors';
import { decide, hopsTo, readTarget, UPGRADE_TARGET_ANNOTATION } from '../olm/install/upgrade-target';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { judgeTarget, setterReview, subjectOf, targetSeal, type Judged } from './upgrade-target-judge';
import { currentPlan, pathOf } from './upgrade-target-path';
import { liveTargetOf, withSpent, type TargetRecordData } from './upgrade-target-record';
import type { TargetSeal } from './upgrade-target-seal';
import { upgradeTargetStore, type UpgradeTargetStore } from './upgrade-target-store';

/** The approver's note that it has reported the refusal of the target's current value (a sealed mark). */
export const UPGRADE_TARGET_REFUSED_ANNOTATION = 'olm-console.io/upgrade-target-refused';

/**
 * A record entry whose Subscription carries no target with its id is retired, once it is older
 * than this: setting a target writes the record a moment before the annotation, which a pass
 * listing Subscriptions in between must not take for a target removed by hand.
 */
export const ORPHAN_GRACE_MS = 30_000;

async function recordEvent(
  client: KubeClient,
  sub: Subscription,
  reason: string,
  message: string,
  type: 'Normal' | 'Warning' = 'Normal',
): Promise<void> {
  const now = new Date().toISOString();
  const ns = sub.metadata?.namespace ?? '';
  try {
    await client.create(
      EVENT_TYPE,
      {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { generateName: `${sub.metadata?.name}.`, namespace: ns },
        involvedObject: {
          apiVersion: `${SUBSCRIPTION_TYPE.group}/${SUBSCRIPTION_TYPE.version}`,
          kind: 'Subscription',
          name: sub.metadata?.name,
          namespace: ns,
          uid: sub.metadata?.uid,
        },
        reason,
        message,
        type,
        count: 1,
        firstTimestamp: now,
        lastTimestamp: now,
        source: { component: 'olm-console' },
        reportingComponent: 'olm-console',
      },
      { namespace: ns },
    );
  } catch {
    // An Event is a record, not the action: the approval stands without it.
  }
}

export interface ApproverPass {
  approved: { namespace: string; plan: string; csvs: string[] }[];
  reached: { namespace: string; subscription: string; csv: string }[];
  waiting: { namespace: string; subscription: string; reason: string }[];
  /** Targets not acted on; `reported`: this pass recorded the Event (once per annotation value). */
  refused: { namespace: string; subscription: string; reason: string; reported: boolean }[];
  /** Record entries retired because their Subscription no longer carries that target (or is gone). */
  retired: number;
}

/** The JSON pointer to an annotation. */
const pointer = (annotation: string) => `/metadata/annotations/${annotation.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** The first op of a JSON patch that applies only to the version read. */
const atVersion = (sub: Subscription) => ({
  op: 'test',
  path: '/metadata/resourceVersion',
  value: sub.metadata?.resourceVersion,
});
const isRace = (err: unknown) => isKubeError(err, 409) || isKubeError(err, 422) || isKubeError(err, 404);

/**
 * Records a Warning Event on the Subscription saying why its target is refused, once per value of
 * the annotation: the sealed mark, set at the version read, tells later passes and other replicas
 * it is done (only the replica whose mark lands records the Event). True if this call reported it.
 */
async function reportRefusal(
  client: KubeClient,
  sub: Subscription,
  seal: TargetSeal,
  judged: Judged,
): Promise<boolean> {
  const mark = seal.refusalMark(subjectOf(sub), judged.raw ?? '');
  if (sub.metadata?.annotations?.[UPGRADE_TARGET_REFUSED_ANNOTATION] === mark) return false;
  const marked = [atVersion(sub), { op: 'add', path: pointer(UPGRADE_TARGET_REFUSED_ANNOTATION), value: mark }];
  try {
    const { name = '', namespace } = sub.metadata ?? {};
    await client.patch(SUBSCRIPTION_TYPE, name, marked, { namespace, type: 'json' });
  } catch (err) {
    if (isRace(err)) return false;
    throw err;
  }
  const what = judged.target ? `${judged.target.csv}, said to be set by ${judged.target.setBy},` : 'annotation';
  const message = `the upgrade target ${what} is refused and no InstallPlan is approved for it: ${judged.refused}`;
  await recordEvent(client, sub, 'UpgradeTargetRefused', message, 'Warning');
  return true;
}

/**
 * Retires the record's entries whose Subscription no longer carries that target: removed by hand
 * rather than cancelled through the console, or the Subscription deleted. Returns the record.
 */
async function retireOrphans(
  store: UpgradeTargetStore,
  subs: Subscription[],
  record: TargetRecordData,
  now: number,
): Promise<{ record: TargetRecordData; retired: number }> {
  const carried = new Map(subs.map((s) => [s.metadata?.uid ?? '', readTarget(s)?.id]));
  const orphans = Object.keys(record)
    .map((k) => liveTargetOf(record, k.slice(2)))
    .filter((t) => t && t.setAt + ORPHAN_GRACE_MS < now && carried.get(t.uid) !== t.id);
  if (!orphans.length) return { record, retired: 0 };
  const { after } = await store.change((d) => orphans.reduce((acc, t) => withSpent(acc, t!.uid, t!.id), d));
  return { record: after, retired: orphans.length };
}

export interface ApproverOptions {
  seal?: TargetSeal;
  /** The record of live targets, read and written with the console's own identity. */
  store?: UpgradeTargetStore;
  now?: () => number;
}

/**
 * One pass of the approver over every Subscription with a target, with the approver's client.
 * A plan approved or a target removed by another replica meanwhile is a 409 here, and skipped.
 */
export async function approverPass(client: KubeClient, opts: ApproverOptions = {}): Promise<ApproverPass> {
  const seal = opts.seal ?? targetSeal();
  const store = opts.store ?? upgradeTargetStore();
  const now = opts.now ?? Date.now;
  const all = (await client.listAll<Subscription>(SUBSCRIPTION_TYPE)).items;
  const { record, retired } = await retireOrphans(store, all, await store.read(), now());
  const out: ApproverPass = { approved: [], reached: [], waiting: [], refused: [], retired };
  const subs = all.filter((s) => s.metadata?.annotations?.[UPGRADE_TARGET_ANNOTATION]);
  for (const sub of subs) {
    const ns = sub.metadata?.namespace ?? '';
    const name = sub.metadata?.name ?? '';
    const judged = judgeTarget(sub, seal, record, now());
    const refuse = async (reason: string) => {
      const reported = await reportRefusal(client, sub, seal, { ...judged, refused: reason });
      out.refused.push({ namespace: ns, subscription: name, reason, reported });
    };
    try {
      if (judged.refused) {
        await refuse(judged.refused);
        continue;
      }
      const target = judged.target!;
      if (sub.status?.installedCSV === target.csv) {
        // Removed only while it is this value: a target set again meanwhile is kept. Then retired
        // in the record, so that this value written back is refused.
        const test = { op: 'test', path: pointer(UPGRADE_TARGET_ANNOTATION), value: judged.raw };
        const removed = [test, { op: 'remove', path: pointer(UPGRADE_TARGET_ANNOTATION) }];
        await client.patch(SUBSCRIPTION_TYPE, name, removed, { namespace: ns, type: 'json' });
        await store.change((d) => withSpent(d, subjectOf(sub).uid, target.id));
        out.reached.push({ namespace: ns, subscription: name, csv: target.csv });
        await recordEvent(
          client,
          sub,
          'UpgradeTargetReached',
          `${target.csv} is installed: the upgrade target set by ${target.setBy} is reached and removed; ` +
            'later InstallPlans wait for approval again',
        );
        continue;
      }
      const { steps, problem } = await pathOf(client, sub);
      const h = hopsTo(steps, target.csv);
      if ('error' in h) {
        out.waiting.push({ namespace: ns, subscription: name, reason: problem ? `${h.error}: ${problem}` : h.error });
        continue;
      }
      const plan = await currentPlan(client, sub);
      const v = decide(sub, target, h.hops, plan);
      if (v.action !== 'approve') {
        if (v.action === 'wait') out.waiting.push({ namespace: ns, subscription: name, reason: v.reason });
        continue;
      }
      // At the moment of acting: still live (not cancelled on another replica since the pass
      // began), and its setter still holds the right the approval uses.
      if (liveTargetOf(await store.read(), subjectOf(sub).uid)?.id !== target.id) continue;
      const review = await setterReview(client, target, ns);
      if (!review.allowed) {
        await refuse(review.reason);
        continue;
      }
      await client.replace<InstallPlan>(INSTALL_PLAN_TYPE, { ...plan!, spec: { ...plan!.spec, approved: true } });
      out.approved.push({ namespace: ns, plan: v.plan, csvs: v.csvs });
      await recordEvent(
        client,
        sub,
        'UpgradeApproved',
        `InstallPlan ${v.plan} (${v.csvs.join(', ')}) approved by olm-console on the way to ${target.csv}, ` +
          `the upgrade target set by ${target.setBy}`,
      );
    } catch (err) {
      if (isRace(err)) continue;
      throw err;
    }
  }
  return out;
}

/** Runs the approver every `intervalMs` in this process, a pass at a time; returns a stop function. */
export function startUpgradeApprover(
  client: KubeClient,
  log: { info(o: object, m: string): void; warn(o: object, m: string): void },
  intervalMs = 5000,
): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      const pass = await approverPass(client);
      for (const a of pass.approved)
        log.info({ namespace: a.namespace, installPlan: a.plan, csvs: a.csvs }, 'upgrade target: InstallPlan approved');
      for (const r of pass.reached)
        log.info({ namespace: r.namespace, subscription: r.subscription, csv: r.csv }, 'upgrade target reached');
      for (const r of pass.refused.filter((x) => x.reported)) {
        log.warn({ namespace: r.namespace, subscription: r.subscription, reason: r.reason }, 'upgrade target refused');
      }
      if (pass.retired) log.info({ retired: pass.retired }, 'upgrade targets removed by hand retired from the record');
    } catch (err) {
      log.warn({ err: (err as Error).message }, 'upgrade approver pass failed');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
