// Moving an operator from OLM v0 to OLM v1 as the person: plans again (the browser's plan is not
// trusted), makes the plan's writes in order, looking again just before it marks objects for v1 to
// take over (migration-recheck.ts: the cluster may have changed; it refuses rather than adopt),
// waits for the ClusterExtension to be Installed, and when a step before that fails puts back what
// it can, in reverse: the ClusterExtension is deleted with propagation Orphan (a plain delete would
// garbage-collect the CRDs it adopted, and every object of them), the objects v1 created (its
// owner labels for this extension, by uid) are deleted, the Subscription is made again (OLM v0 then reinstalls the CSV), Helm's marks are taken
// off, the installer account goes. Cleanup failures after the install are reported, not rolled
// back: the move itself is done by then.
import type { KubeClient } from '../../k8s/client';
import { isKubeError } from '../../k8s/errors';
import { findCondition, type KubeObject } from '../../olm/resources/common';
import { SUBSCRIPTION_TYPE, type Subscription } from '../../olm/resources/subscription';
import { CLUSTER_EXTENSION, type MigrationStep, type MigrationWrite } from '../../olm/v1/migration-plan';
import type { MigrationResult, MigrationStepOutcome } from '../../api/olm-v1-migration';
import { ApiError } from '../api-error';
import { analyseMigration } from './migration';
import { markInstall } from './install-mark';
import { createdByV1, recheckAdoption, recheckContent } from './migration-recheck';
import { csvBack, csvGone, remarkRefused, waitPlansSettled, type KnownPlans } from './migration-v0-writes';
import { CLUSTER_EXTENSION_TYPE, type ClusterExtension } from './resources';

const OWNER_KIND = 'olm.operatorframework.io/owner-kind';
const OWNER_NAME = 'olm.operatorframework.io/owner-name';

/**
 * The installer account and roles the move made get the console's mark once the extension exists
 * (it names the extension's uid), as the install wizard's do: without it an uninstall would not
 * offer them and a version change would not widen them. A mark that could not be written leaves
 * the move standing; the step's message says what follows.
 */
async function markInstaller(client: KubeClient, extension: string, done: Done[]): Promise<string | undefined> {
  const made = done
    .filter((d) => d.step.id === 'installer')
    .flatMap((d) => d.writes)
    .filter((w) => w.verb === 'create')
    .map((w) => ({ kind: w.type.kind, name: w.name, namespace: w.namespace }));
  if (!made.length) return undefined;
  let failed: { ref: { kind: string; name: string }; message: string }[];
  try {
    failed = await markInstall(client, await client.get<ClusterExtension>(CLUSTER_EXTENSION_TYPE, extension), made);
  } catch (err) {
    failed = made.map((ref) => ({ ref, message: (err as Error).message }));
  }
  if (!failed.length) return undefined;
  return (
    `${failed.map((f) => `${f.ref.kind} ${f.ref.name}`).join(', ')} could not be marked as made for ${extension} ` +
    `(${failed[0]!.message}): uninstalling will not offer to delete them, and a version change that needs ` +
    `more rights will not widen them`
  );
}

/** Writes `w`; answers what the API server answered (for a delete, the object or a Status). */
async function write(client: KubeClient, w: MigrationWrite): Promise<unknown> {
  if (w.verb === 'create') return client.create(w.type, w.body!, { namespace: w.namespace });
  if (w.verb === 'patch') return client.patch(w.type, w.name, w.body!, { namespace: w.namespace, type: 'merge' });
  return client.delete(w.type, w.name, {
    namespace: w.namespace,
    ...(w.propagationPolicy ? { propagationPolicy: w.propagationPolicy } : {}),
  });
}

/** The uid of what a delete answered: the object still finalizing, or the Status of one gone. */
function deletedUid(answer: unknown): string | undefined {
  const a = answer as { metadata?: { uid?: unknown }; details?: { uid?: unknown } } | undefined;
  const uid = a?.metadata?.uid ?? a?.details?.uid;
  return typeof uid === 'string' ? uid : undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long the move leaves OLM v0 to see its Subscription deleted before it deletes the CSV. */
const V0_SETTLE_MS = 3000;

/**
 * Installed=True, or the reason it will not be: Progressing Blocked, or still not installed when
 * time runs out. `refused` is asked about each message that is not Installed: it may put right
 * what operator-controller names (an object that lost the move's marks) and answers undefined,
 * or says why the move fails.
 */
async function waitInstalled(
  client: KubeClient,
  name: string,
  waitMs: number,
  refused: (message: string | undefined) => Promise<string | undefined>,
): Promise<string | undefined> {
  const until = Date.now() + waitMs;
  let last = '';
  for (;;) {
    const ce = await client.get<ClusterExtension>(CLUSTER_EXTENSION, name);
    const installed = findCondition(ce.status?.conditions, 'Installed');
    const progressing = findCondition(ce.status?.conditions, 'Progressing');
    if (installed?.status === 'True') return undefined;
    last = progressing?.message || installed?.message || last;
    if (progressing?.reason === 'Blocked') return `OLM v1 is blocked: ${last}`;
    const why = await refused(progressing?.message || installed?.message);
    if (why) return why;
    if (Date.now() > until)
      return `OLM v1 did not report Installed within ${Math.round(waitMs / 1000)} s${last ? `: ${last}` : ''}`;
    await sleep(1000);
  }
}

async function gone(client: KubeClient, name: string, waitMs: number, type = CLUSTER_EXTENSION, namespace?: string) {
  const until = Date.now() + waitMs;
  while (Date.now() < until) {
    try {
      await client.get(type, name, namespace);
    } catch (err) {
      if (isKubeError(err, 404)) return true;
      throw err;
    }
    await sleep(500);
  }
  return false;
}

/** The Subscription as it was, without what the API server and OLM wrote. */
function sameSubscription(s: Subscription, csv: string): Subscription {
  const m = s.metadata ?? {};
  return {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'Subscription',
    metadata: {
      name: m.name,
      namespace: m.namespace,
      ...(m.labels ? { labels: m.labels } : {}),
      ...(m.annotations ? { annotations: m.annotations } : {}),
    },
    spec: { ...s.spec, startingCSV: csv },
  } as Subscription;
}

interface Done {
  step: MigrationStep;
  writes: MigrationWrite[];
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Deletes, of the objects the plan said OLM v1 would create, those the cluster shows v1 made for
 * this extension: its owner labels, deleted by uid. The names come from the catalog's bundle, and
 * someone may have made an object of that name after the move looked (v1 then fails on it, which
 * is how the move came to be rolled back): that object is left, and said so.
 */
export async function deleteMadeByV1(
  client: KubeClient,
  created: readonly MigrationWrite[],
  extension: string,
): Promise<string[]> {
  const notRestored: string[] = [];
  for (const w of created) {
    const what = `${w.type.kind} ${w.namespace ? `${w.namespace}/` : ''}${w.name}`;
    try {
      const o = await client.get<KubeObject>(w.type, w.name, w.namespace);
      const labels = o.metadata?.labels ?? {};
      if (labels[OWNER_KIND] !== 'ClusterExtension' || labels[OWNER_NAME] !== extension) {
        notRestored.push(`${what} is left: OLM v1 did not make it for ${extension}`);
        continue;
      }
      await client.delete(w.type, w.name, { namespace: w.namespace, uid: o.metadata?.uid });
    } catch (err) {
      if (!isKubeError(err, 404)) notRestored.push(`${what}: ${message(err)}`);
    }
  }
  return notRestored;
}

/** Puts back what the done steps changed, newest first; returns what could not be restored. */
async function rollBack(
  client: KubeClient,
  done: Done[],
  ctx: { subscription?: Subscription; csv: string; extension: string; created: MigrationWrite[] },
  outcomes: MigrationStepOutcome[],
): Promise<string[]> {
  const notRestored: string[] = [];
  for (const d of [...done].reverse()) {
    const o = outcomes.find((x) => x.id === d.step.id)!;
    try {
      if (d.step.id === 'create-extension') {
        await client.delete(CLUSTER_EXTENSION, ctx.extension, { propagationPolicy: 'Orphan' });
        if (!(await gone(client, ctx.extension, 60_000)))
          notRestored.push(`ClusterExtension ${ctx.extension} is still being deleted`);
        notRestored.push(...(await deleteMadeByV1(client, ctx.created, ctx.extension)));
        notRestored.push("operator-controller's release Secrets for the ClusterExtension stay in its own namespace");
      } else if (d.step.id === 'orphan-csv') {
        notRestored.push(
          `the CSV ${ctx.csv} is not restored itself: OLM v0 installs it again from the Subscription ` +
            '(approve its InstallPlan if the Subscription asks for Manual approval)',
        );
      } else if (d.step.id === 'delete-subscription' && ctx.subscription) {
        await client.create(SUBSCRIPTION_TYPE, sameSubscription(ctx.subscription, ctx.csv));
      } else if (d.step.id === 'adopt') {
        for (const w of d.writes) {
          const undo = structuredClone(w.undo!) as { metadata: { labels: Record<string, unknown> } };
          undo.metadata.labels[OWNER_KIND] = null;
          undo.metadata.labels[OWNER_NAME] = null;
          await client.patch(w.type, w.name, undo, { namespace: w.namespace, type: 'merge' });
        }
      } else if (d.step.id === 'installer') {
        for (const w of [...d.writes].reverse()) await client.delete(w.type, w.name, { namespace: w.namespace });
      }
      o.state = 'undone';
    } catch (err) {
      o.state = 'undo-failed';
      o.message = message(err);
      notRestored.push(`${d.step.title}: ${message(err)}`);
    }
  }
  return notRestored;
}

export async function applyMigration(
  client: KubeClient,
  namespace: string,
  csvName: string,
  opts: {
    waitMs?: number;
    plansWaitMs?: number;
    settleMs?: number;
    csvWaitMs?: number;
    bundleDigest?: string;
  } = {},
): Promise<MigrationResult> {
  const a = await analyseMigration(client, namespace, csvName);
  if (!a.view.canMove)
    throw new ApiError(409, 'Conflict', a.view.reasons.map((r) => r.message).join('; '), { reasons: a.view.reasons });
  // The person agreed to a plan rendered from one image: a plan made now from another is not it.
  const source = a.view.source;
  if (opts.bundleDigest && (source?.from !== 'image' || source.digest !== opts.bundleDigest))
    throw new ApiError(
      409,
      'Conflict',
      `the plan you saw was read from bundle image digest ${opts.bundleDigest}, but ` +
        (source?.from === 'image'
          ? `${source.image} now resolves to ${source.digest}`
          : `ClusterCatalog ${a.view.catalog ?? ''} now gives the bundle inline`) +
        '; nothing was changed: look at the plan again',
    );
  const denied = a.view.steps!.filter((s) => s.denied);
  if (denied.length) throw new ApiError(403, 'Forbidden', denied.map((s) => `${s.title}: ${s.denied}`).join('; '));
  const steps = a.steps!;
  const extension = a.view.extension!;
  const outcomes: MigrationStepOutcome[] = steps.map((s) => ({ id: s.id, title: s.title, state: 'not-run' }));
  const done: Done[] = [];
  const created = createdByV1(a);
  const known: KnownPlans = { csv: csvName };
  let rechecked = false;
  for (const s of steps) {
    const o = outcomes.find((x) => x.id === s.id)!;
    const made: MigrationWrite[] = [];
    let failure: string | undefined;
    let writes = s.writes;
    try {
      // OLM v0 executing a plan now could make the CSV again or rewrite what is about to be marked;
      // until the Subscription is gone, it may make a new plan.
      if (s.id === 'delete-subscription' || s.id === 'orphan-csv' || s.id === 'adopt') {
        // Time for OLM v0's caches to see the Subscription gone before its CSV goes: a namespace
        // resolved meanwhile installs the CSV again (seen on the real cluster).
        if (s.id === 'orphan-csv') await sleep(opts.settleMs ?? V0_SETTLE_MS);
        const busy = await waitPlansSettled(client, namespace, opts.plansWaitMs ?? 60_000, known);
        if (busy) throw new Error(busy);
        const back = s.id === 'adopt' ? await csvBack(client, namespace, csvName) : undefined;
        if (back) throw new Error(back);
      }
      // Just before anything is marked, or before v1 is created when nothing is to be marked.
      if (!rechecked && (s.id === 'adopt' || s.id === 'create-extension')) {
        rechecked = true;
        const changed = await recheckContent(client, a.target!);
        if (changed) throw new Error(`the bundle changed since the plan, so nothing was taken over: ${changed}`);
        const r = await recheckAdoption(client, s.id === 'adopt' ? s : { ...s, writes: [] }, created, {
          csv: csvName,
          extension,
          namespace,
        });
        if ('refused' in r)
          throw new Error(`the cluster changed since the plan, so nothing was taken over: ${r.refused}`);
        if (s.id === 'adopt') writes = r.writes;
        created.push(...r.vanished);
      }
      if (s.id === 'wait-installed') {
        const marked = done.find((d) => d.step.id === 'adopt')?.writes ?? [];
        const tried = new Set<string>();
        const release = { name: extension, namespace };
        failure = await waitInstalled(client, extension, opts.waitMs ?? 120_000, async (m) => {
          const back = await csvBack(client, namespace, csvName);
          if (back) return back;
          const r = await remarkRefused(client, m, marked, release, tried);
          if (r && 'refused' in r) return r.refused;
          if (r) o.message = `${r.remarked} lost the marks for OLM v1 while it installed and was marked again`;
          return undefined;
        });
        // Installed by v1 while OLM v0 installs the CSV again is no move: both would manage it.
        failure ??= await csvBack(client, namespace, csvName);
      } else
        for (const w of writes) {
          try {
            const answer = await write(client, w);
            made.push(w);
            // OLM v0 has let go only once its finalizer ran and the CSV is gone; marks made before are lost.
            if (s.id === 'orphan-csv') {
              const held = await csvGone(client, namespace, deletedUid(answer), opts.csvWaitMs ?? 120_000, known);
              if (held) throw new Error(held);
            }
          } catch (err) {
            // Cleanup is best effort: something already gone is what it wanted.
            if (s.id === 'cleanup' && isKubeError(err, 404)) continue;
            throw err;
          }
        }
    } catch (err) {
      failure = message(err);
    }
    if (!failure) {
      o.state = 'done';
      done.push({ step: s, writes: made });
      if (s.id === 'create-extension') o.message = await markInstaller(client, extension, done);
      continue;
    }
    o.state = 'failed';
    o.message = failure;
    if (s.id === 'cleanup')
      return { ok: true, extension, steps: outcomes, notRestored: [], message: `The move is done; ${failure}` };
    // A step that failed half-way has its own writes undone too.
    if (made.length) done.push({ step: s, writes: made });
    const notRestored = await rollBack(
      client,
      done,
      { subscription: a.subscription, csv: csvName, extension, created },
      outcomes,
    );
    return {
      ok: false,
      extension,
      steps: outcomes,
      notRestored,
      message: `${s.title} failed: ${failure}. ${csvName} was moved back to OLM v0 as far as it could be.`,
    };
  }
  return { ok: true, extension, steps: outcomes, notRestored: [] };
}
