// Keeping OLM v0's own writes from undoing the move's marks. OLM v0.38.0's catalog operator writes
// an InstallPlan's objects while the plan is Installing, and a step it executes again replaces a
// ServiceAccount's labels with the step's own (catalog/step_ensurer.go EnsureServiceAccount), so
// Helm's managed-by label goes and operator-controller refuses the object as "already exists"
// (seen once on the real cluster; docs/olm-v1/migration.md#the-steps). So the move waits, bounded,
// until no InstallPlan of the namespace is being executed before it deletes the CSV and before it
// marks; and while it waits for Installed, an object operator-controller names as one it cannot
// manage is marked again, once per object and only if it is still the very object the move listed
// and marked (its uid) and OLM v0 does not own it again. A name alone is never enough: the catalog
// chose it.
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../../olm/resources/install-plan';
import { adoptionConflict, remarkRefusal } from '../../olm/v1/adoption-conflict';
import type { MigrationWrite } from '../../olm/v1/migration-plan';
import { recheckRefusal } from '../../olm/v1/v0-ownership';
import { existingObject } from './migration';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** An InstallPlan the catalog operator is executing, or is about to (approved, not yet Installing). */
const executing = (p: InstallPlan) =>
  p.status?.phase === 'Installing' || (p.status?.phase === 'RequiresApproval' && p.spec.approved === true);

/**
 * Undefined once no InstallPlan of the namespace is being executed, or why the move must not go
 * on: still executing after `waitMs`.
 */
export async function waitPlansSettled(client: KubeClient, namespace: string, waitMs: number) {
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
  const planned = { kind: w.type.kind, name: w.name, ...(w.namespace ? { namespace: w.namespace } : {}), uid: w.uid };
  const why = recheckRefusal(planned, now, release) ?? remarkRefusal(now);
  if (why) return { refused: why };
  const body = structuredClone(w.body!) as { metadata: Record<string, unknown> };
  body.metadata.resourceVersion = live.metadata?.resourceVersion;
  await client.patch(w.type, w.name, body, { namespace: w.namespace, type: 'merge' });
  return { remarked: `${c.kind} ${c.namespace ? `${c.namespace}/` : ''}${c.name}` };
}
