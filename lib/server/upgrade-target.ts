// "Upgrade up to a version": the person sets (or cancels) a target on a Manual Subscription, as
// themselves; the console's approver — only the identity the cluster administrator configured in
// OLM_CONSOLE_UPGRADE_APPROVER — approves each InstallPlan whose CSVs are all hops up to the
// target, records an Event naming the person who set it, and removes the target once it is
// installed. It acts only on targets sealed by the console (upgrade-target-seal.ts), which seals
// one only after the person passed the access review: a target anybody who may merely patch the
// Subscription wrote, altered or copied is refused, with a Warning Event once per value.
// Every replica runs the approver: each approval is a PUT at the plan's resourceVersion, so only
// one replica's succeeds, and only that one records the Event.
import { sharedCatalogIndex } from '../catalog/catalog-index';
import { graphFromModel } from '../catalog/graph-view';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import {
  decide,
  hopsTo,
  readTarget,
  UPGRADE_TARGET_ANNOTATION,
  writeTarget,
  type UpgradeTarget,
} from '../olm/install/upgrade-target';
import type { UpdateStep } from '../olm/graph/update-path';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { ApiError } from './api-error';
import { consoleIdentityClient, sessionKey } from './context';
import { accessReview, whoAmI } from './permissions';
import { TargetSeal } from './upgrade-target-seal';
import type { UpgradeTargetView } from '../api/upgrade-target';
import { EVENT_TYPE } from '../k8s/core-kinds';
export type { UpgradeTargetView } from '../api/upgrade-target';

/** The approver's note that it has reported the refusal of the target's current value (a sealed mark). */
export const UPGRADE_TARGET_REFUSED_ANNOTATION = 'olm-console.io/upgrade-target-refused';

/** The seal of this process's session key, which every replica shares (OLM_CONSOLE_SESSION_KEY). */
function targetSeal(): TargetSeal {
  return TargetSeal.fromSessionKey(sessionKey());
}

const subjectOf = (sub: Subscription) => ({
  namespace: sub.metadata?.namespace ?? '',
  name: sub.metadata?.name ?? '',
  uid: sub.metadata?.uid ?? '',
});

/** The target annotation as written, the target read from it, and why the approver refuses it if it does. */
interface Judged {
  raw?: string;
  target?: UpgradeTarget;
  refused?: string;
}

function judgeTarget(sub: Subscription, seal: TargetSeal): Judged {
  const raw = sub.metadata?.annotations?.[UPGRADE_TARGET_ANNOTATION];
  if (!raw) return {};
  const target = readTarget(sub);
  if (!target) return { raw, refused: 'it is not a target the console wrote (JSON with csv, setBy, setAt and seal)' };
  const check = seal.check(subjectOf(sub), target, target.seal);
  return check.ok ? { raw, target } : { raw, target, refused: check.reason };
}

/** Which identity approves for targets, from the environment; undefined: the feature is off. */
export function approverSetting(env: Record<string, string | undefined> = process.env): string | undefined {
  const v = env.OLM_CONSOLE_UPGRADE_APPROVER?.trim();
  return v ? v : undefined;
}

export const APPROVER_OFF =
  'no approver is configured: the cluster administrator sets OLM_CONSOLE_UPGRADE_APPROVER (docs/deploy.md, "Environment") before targets can be set';

/** The update path from the installed CSV, by the catalog's graph (as OLM walks it). */
async function pathOf(client: KubeClient, sub: Subscription): Promise<{ steps: UpdateStep[]; problem?: string }> {
  const installed = sub.status?.installedCSV;
  if (!installed) return { steps: [], problem: 'nothing is installed yet' };
  const lookup = await sharedCatalogIndex().lookupPackage(
    client,
    { namespace: sub.spec.sourceNamespace, catalog: sub.spec.source, package: sub.spec.name },
    [sub.metadata?.namespace ?? ''],
  );
  if (!lookup)
    return {
      steps: [],
      problem: `package ${sub.spec.name} is not in catalog ${sub.spec.sourceNamespace}/${sub.spec.source} (or cannot be seen)`,
    };
  if (lookup.source !== 'registry')
    return {
      steps: [],
      problem: 'the catalog is readable only through PackageManifests, which carry no upgrade edges',
    };
  const view = graphFromModel(lookup.pkg, sub.spec.channel || undefined, installed);
  return { steps: view.path?.steps ?? [], ...(view.path?.error ? { problem: view.path.error } : {}) };
}

async function currentPlan(client: KubeClient, sub: Subscription): Promise<InstallPlan | undefined> {
  const name = sub.status?.installPlanRef?.name ?? sub.status?.installplan?.name;
  if (!name) return undefined;
  try {
    return await client.get<InstallPlan>(INSTALL_PLAN_TYPE, name, sub.metadata?.namespace);
  } catch (err) {
    if (isKubeError(err, 404)) return undefined;
    throw err;
  }
}

export async function upgradeTargetView(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<UpgradeTargetView> {
  const sub = await client.get<Subscription>(SUBSCRIPTION_TYPE, name, namespace);
  const { target, refused } = judgeTarget(sub, targetSeal());
  const { steps, problem } = await pathOf(client, sub);
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
    approverConfigured: !!approverSetting(),
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
  return { ...view, hops, verdict };
}

/**
 * Sets the target as the person, who must be allowed to approve the namespace's InstallPlans
 * themselves (the approver acts for them, never beyond them), sealed to this Subscription so the
 * approver knows the console checked that. Refused on an Automatic Subscription (OLM goes to the
 * head by itself) and for a version off the update path.
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
  const who = (await whoAmI(client)) || 'unknown';
  const fields = { csv, setBy: who, setAt: new Date().toISOString() };
  const target: UpgradeTarget = { ...fields, seal: targetSeal().sign(subjectOf(sub), fields) };
  // A Subscription deleted and made again meanwhile has another uid: the approver refuses this seal on it.
  const annotations = { [UPGRADE_TARGET_ANNOTATION]: writeTarget(target), [UPGRADE_TARGET_REFUSED_ANNOTATION]: null };
  await client.patch(SUBSCRIPTION_TYPE, name, { metadata: { annotations } }, { namespace, type: 'merge' });
  return upgradeTargetView(client, namespace, name);
}

export async function clearUpgradeTarget(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<UpgradeTargetView> {
  const annotations = { [UPGRADE_TARGET_ANNOTATION]: null, [UPGRADE_TARGET_REFUSED_ANNOTATION]: null };
  await client.patch(SUBSCRIPTION_TYPE, name, { metadata: { annotations } }, { namespace, type: 'merge' });
  return upgradeTargetView(client, namespace, name);
}

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
 * One pass of the approver over every Subscription with a target, with the approver's client.
 * A plan approved or a target removed by another replica meanwhile is a 409 here, and skipped.
 */
export async function approverPass(client: KubeClient, seal: TargetSeal = targetSeal()): Promise<ApproverPass> {
  const out: ApproverPass = { approved: [], reached: [], waiting: [], refused: [] };
  const all = (await client.listAll<Subscription>(SUBSCRIPTION_TYPE)).items;
  const subs = all.filter((s) => s.metadata?.annotations?.[UPGRADE_TARGET_ANNOTATION]);
  for (const sub of subs) {
    const ns = sub.metadata?.namespace ?? '';
    const name = sub.metadata?.name ?? '';
    const judged = judgeTarget(sub, seal);
    try {
      if (judged.refused) {
        const reported = await reportRefusal(client, sub, seal, judged);
        out.refused.push({ namespace: ns, subscription: name, reason: judged.refused, reported });
        continue;
      }
      const target = judged.target!;
      if (sub.status?.installedCSV === target.csv) {
        // Removed at the version read: a target set again meanwhile is kept.
        const removed = [atVersion(sub), { op: 'remove', path: pointer(UPGRADE_TARGET_ANNOTATION) }];
        await client.patch(SUBSCRIPTION_TYPE, name, removed, { namespace: ns, type: 'json' });
        out.reached.push({ namespace: ns, subscription: name, csv: target.csv });
        await recordEvent(
          client,
          sub,
          'UpgradeTargetReached',
          `${target.csv} is installed: the upgrade target set by ${target.setBy} is reached and removed; later InstallPlans wait for approval again`,
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
      await client.replace<InstallPlan>(INSTALL_PLAN_TYPE, { ...plan!, spec: { ...plan!.spec, approved: true } });
      out.approved.push({ namespace: ns, plan: v.plan, csvs: v.csvs });
      await recordEvent(
        client,
        sub,
        'UpgradeApproved',
        `InstallPlan ${v.plan} (${v.csvs.join(', ')}) approved by olm-console on the way to ${target.csv}, the upgrade target set by ${target.setBy}`,
      );
    } catch (err) {
      if (isRace(err)) continue;
      throw err;
    }
  }
  return out;
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
