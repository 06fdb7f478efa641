// Keeping OLM v0's own writes from undoing the move's marks. OLM v0.38.0's catalog operator writes
// an InstallPlan's objects while the plan is Installing, and a step it executes again replaces a
// ServiceAccount's labels with the step's own (catalog/step_ensurer.go EnsureServiceAccount), so
// Helm's managed-by label goes and operator-controller refuses the object as "already exists"
// (seen once on the real cluster; docs/olm-v1/migration.md#the-steps). So the move waits, bounded,
// until no InstallPlan of the namespace is being executed before it deletes the CSV and before it
// marks; and while it waits for Installed, an object operator-controller names as one it cannot
// manage is marked again, once per object and only if it is still the very object the move listed
// and marked (its uid) and OLM v0 does not own it again. A name alone is never enough: the catalog
// chose it. And OLM v0 may install the CSV anew by itself, from caches that still hold the deleted
// Subscription (seen on the real cluster): a new InstallPlan naming the CSV, or the CSV back, stops
// the move.
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { CSV_CLEANUP_FINALIZER } from '../../olm/install/leftovers';
import { CSV_TYPE } from '../../olm/resources/cluster-service-version';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import { adoptionConflict, remarkRefusal } from '../../olm/v1/adoption-conflict';
import type { MigrationWrite } from '../../olm/v1/migration-plan';
import { recheckRefusal } from '../../olm/v1/v0-ownership';
import { existingObject } from './migration';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An InstallPlan the catalog operator is executing, or is about to (approved, not yet Installing). */
const executing = (p: InstallPlan) =>
  p.status?.phase === 'Installing' || (p.status?.phase === 'RequiresApproval' && p.spec.approved === true);

/** What the move knows of the namespace's InstallPlans: their uids when it began, and its CSV. */
export interface KnownPlans {
  csv: string;
  /** Filled by the first wait; a plan not in it that names the CSV is OLM v0 installing it again. */
  uids?: Set<string>;
}

/**
 * Undefined once no InstallPlan of the namespace is being executed, or why the move must not go
 * on: still executing after `waitMs`, or a plan made since the move began that installs its CSV
 * again (the catalog operator resolved the namespace from caches that still held the Subscription).
 */
export async function waitPlansSettled(client: KubeClient, namespace: string, waitMs: number, known: KnownPlans) {
  const until = Date.now() + waitMs;
  for (;;) {
    let plans: InstallPlan[];
    try {
      plans = (await client.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace })).items;
    } catch (err) {
      if (!isKubeError(err, 403)) throw err;
      return (
        `you may not list the InstallPlans of ${namespace} (${err.message}), so whether OLM v0 is still ` +
        'writing the objects the move would mark cannot be told; nothing was taken over'
      );
    }
    known.uids ??= new Set(plans.map((p) => p.metadata?.uid ?? ''));
    const again = planSince(plans, known);
    if (again) return reinstalling(known.csv, `InstallPlan ${again.metadata?.name ?? ''}`);
    const busy = plans.filter(executing);
    if (!busy.length) return undefined;
    if (Date.now() > until)
      return (
        `OLM v0 was still executing InstallPlan ${busy.map((p) => p.metadata?.name ?? '').join(', ')} in ` +
        `${namespace} after ${Math.round(waitMs / 1000)} s; it may write the objects the move would mark, ` +
        'so nothing was taken over (try again once it is Complete or Failed)'
      );
    await sleep(1000);
  }
}

/** An InstallPlan made since the move began (none of the plans it first listed) that installs its CSV. */
const planSince = (plans: InstallPlan[], known: KnownPlans) =>
  plans.find((p) => !known.uids?.has(p.metadata?.uid ?? '') && p.spec.clusterServiceVersionNames?.includes(known.csv));

const reinstalling = (csv: string, what: string) =>
  `OLM v0 began installing ${csv} again (${what}) after its Subscription was deleted, from caches that had ` +
  'not yet seen the deletion; the move stopped rather than let both manage the operator: try it again';

/** Who removes each finalizer a deleted CSV may wait on, and when. */
const FINALIZERS: Record<string, string> = {
  [CSV_CLEANUP_FINALIZER]:
    "OLM v0's, removed once the ClusterRoles and ClusterRoleBindings it made for the CSV are gone",
  orphan: "Kubernetes' garbage collector's, removed once no object the CSV owned still names it as owner",
};

type Deleting = { metadata?: { uid?: string; finalizers?: string[]; deletionTimestamp?: string } };

/**
 * Undefined once the CSV the move deleted (`uid`, when the deletion answered with it) is gone;
 * otherwise why the move must stop: OLM v0 installs it again (the CSV back under a new uid, or an
 * InstallPlan made since the move began that names it), or it is still there after `waitMs`, held
 * by the finalizers named with whose they are, so that the person knows what to look at.
 */
export async function csvGone(
  client: KubeClient,
  namespace: string,
  uid: string | undefined,
  waitMs: number,
  known: KnownPlans,
): Promise<string | undefined> {
  const until = Date.now() + waitMs;
  for (;;) {
    let csv: Deleting;
    try {
      csv = await client.get<Deleting>(CSV_TYPE, known.csv, namespace);
    } catch (err) {
      if (isKubeError(err, 404)) return undefined;
      throw err;
    }
    if (uid && csv.metadata?.uid !== uid)
      return reinstalling(known.csv, `ClusterServiceVersion ${known.csv}, uid ${csv.metadata?.uid ?? ''}`);
    const again = planSince((await client.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace })).items, known);
    if (again) return reinstalling(known.csv, `InstallPlan ${again.metadata?.name ?? ''}`);
    if (Date.now() > until) {
      const held = (csv.metadata?.finalizers ?? []).map((f) => `${f} (${FINALIZERS[f] ?? 'another controller’s'})`);
      return (
        `the CSV ${known.csv} was still there ${Math.round(waitMs / 1000)} s after it was deleted` +
        (held.length ? `, held by its finalizers: ${held.join('; ')}` : '')
      );
    }
    await sleep(1000);
  }
}

/** Why the move must stop because the CSV it deleted is there again, or undefined. */
export async function csvBack(client: KubeClient, namespace: string, csv: string): Promise<string | undefined> {
  try {
    const again = await client.get<{ metadata?: { uid?: string } }>(CSV_TYPE, csv, namespace);
    return reinstalling(csv, `ClusterServiceVersion ${csv}, uid ${again.metadata?.uid ?? ''}`);
  } catch (err) {
    if (isKubeError(err, 404)) return undefined;
    throw err;
  }
}

export type Remark = { remarked: string } | { refused: string } | undefined;

/**
 * Marks again the object a condition message says operator-controller cannot manage, when it is
 * one the move marked (`marked`: the adopt step's writes, each with the uid it was planned at);
 * undefined when the message names no such object. `tried` holds the objects marked again
 * already: a second refusal of one is the move's failure, not a loop.
 */
export async function remarkRefused(
  client: KubeClient,
  message: string | undefined,
  marked: readonly MigrationWrite[],
  release: { name: string; namespace: string },
  tried: Set<string>,
): Promise<Remark> {
  const c = adoptionConflict(message);
  if (!c) return undefined;
  const w = marked.find((m) => m.type.kind === c.kind && m.name === c.name && (m.namespace ?? '') === c.namespace);
  if (!w) return undefined;
  const key = `${c.kind}/${c.namespace}/${c.name}`;
  if (tried.has(key)) return { refused: `${message} (it lost the marks for OLM v1 again after they were put back)` };
  tried.add(key);
  let live: Parameters<typeof existingObject>[1] & { metadata?: { resourceVersion?: string } };
  try {
    live = await client.get(w.type, w.name, w.namespace);
  } catch (err) {
    if (isKubeError(err, 404)) return { refused: `${message}, and it is gone now` };
    throw err;
  }
  const now = existingObject(w.type.kind, live, '');
  const planned = {
    kind: w.type.kind,
    name: w.name,
    ...(w.namespace ? { namespace: w.namespace } : {}),
    uid: w.uid,
    ...(w.rules ? { rules: w.rules } : {}),
  };
  const why = recheckRefusal(planned, now, release) ?? remarkRefusal(now);
  if (why) return { refused: why };
  const body = structuredClone(w.body!) as { metadata: Record<string, unknown> };
  body.metadata.resourceVersion = live.metadata?.resourceVersion;
  await client.patch(w.type, w.name, body, { namespace: w.namespace, type: 'merge' });
  return { remarked: `${c.kind} ${c.namespace ? `${c.namespace}/` : ''}${c.name}` };
}
