// Day-two writes, as the person: approving or denying an InstallPlan, changing a Subscription's
// channel or approval. An InstallPlan decision names the plan the person saw (its resourceVersion
// and the CSVs it installs): real OLM keeps writing to a waiting plan (status, the adoption label
// its olm-operator adds once the Subscription points at it), so a newer resourceVersion alone is
// not a conflict; a plan that installs other CSVs, was approved or moved on is a 409 saying what
// changed. The write itself is a PUT of what was just read, so two people deciding at once cannot
// both win. A Subscription's status moves on its own all the time, so a Subscription write names
// the channel and approval the person saw instead: only a change to those by someone else is a
// conflict.
import { packageChannelGraph } from '../olm/graph/from-model';
import { channelSwitch } from '../olm/graph/update-path';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import { CSV_TYPE, type ClusterServiceVersion } from '../olm/resources/cluster-service-version';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Approval, type Subscription } from '../olm/resources/subscription';
import { installPlanSummary, type InstallPlanSummary } from '../olm/status/install-plan-status';
import { csvDisplayStatus } from '../olm/status/csv-status';
import { subscriptionConditionRows, subscriptionUpgradeStatus } from '../olm/status/subscription-status';
import { describeCsv, type CsvLike } from '../olm/resources/csv-description';
import { ownedApisOf, type SubscriptionProgress } from '../olm/status/install-progress';
import { ApiError } from './api-error';
import { checkFresh, trimmed } from './operators';
import type { SeenPlan } from './route-params';
import { catalogIndexOf } from './fleet/catalog-indexes';

export const DENIED_ANNOTATION = 'olm-console.io/denied';

function samePlan(plan: InstallPlan, seen: SeenPlan): boolean {
  if (seen.resourceVersion === undefined || seen.resourceVersion === plan.metadata?.resourceVersion) return true;
  // A later resourceVersion of a plan still waiting with the same CSVs is OLM's bookkeeping.
  const names = seen.clusterServiceVersionNames;
  if (!names || plan.spec.approved || installPlanSummary(plan).phase !== 'RequiresApproval') return false;
  const now = [...plan.spec.clusterServiceVersionNames].sort();
  return names.length === now.length && [...names].sort().every((n, i) => n === now[i]);
}

/**
 * Reads the plan, checks it is still the one the person saw, and PUTs the change; a write that
 * loses to OLM's own (409) is read and checked again.
 */
async function decide(
  client: KubeClient,
  namespace: string,
  name: string,
  seen: SeenPlan,
  change: (plan: InstallPlan, summary: InstallPlanSummary) => InstallPlan,
): Promise<InstallPlan> {
  for (let attempt = 1; ; attempt++) {
    const plan = await client.get<InstallPlan>(INSTALL_PLAN_TYPE, name, namespace);
    const summary = installPlanSummary(plan);
    if (!samePlan(plan, seen))
      checkFresh(
        'InstallPlan',
        name,
        plan.metadata?.resourceVersion,
        seen.resourceVersion,
        `it is now ${summary.label.toLowerCase()}${plan.spec.approved ? ' and approved' : ''}; it installs ${plan.spec.clusterServiceVersionNames.join(', ')}`,
      );
    try {
      return await client.replace<InstallPlan>(INSTALL_PLAN_TYPE, change(plan, summary));
    } catch (err) {
      if (!isKubeError(err, 409) || attempt >= 5) throw err;
    }
  }
}

export async function approveInstallPlan(
  client: KubeClient,
  namespace: string,
  name: string,
  seen: SeenPlan,
): Promise<{ plan: InstallPlan; summary: InstallPlanSummary }> {
  const updated = await decide(client, namespace, name, seen, (plan, summary) => {
    if (plan.spec.approved)
      throw new ApiError(409, 'Conflict', `InstallPlan ${name} is already approved (${summary.label})`);
    if (summary.phase !== 'RequiresApproval')
      throw new ApiError(
        409,
        'Conflict',
        `InstallPlan ${name} is ${summary.label.toLowerCase()}, not waiting for approval`,
      );
    const annotations = { ...plan.metadata?.annotations };
    delete annotations[DENIED_ANNOTATION];
    return { ...plan, metadata: { ...plan.metadata, annotations }, spec: { ...plan.spec, approved: true } };
  });
  return { plan: trimmed(updated), summary: installPlanSummary(updated) };
}

/**
 * OLM has no "deny": an unapproved plan just waits. Deny records who declined and when, so the
 * console can show it, and leaves the plan unapproved; the operator stays on its version.
 */
export async function denyInstallPlan(
  client: KubeClient,
  namespace: string,
  name: string,
  seen: SeenPlan,
  who: string | undefined,
): Promise<{ plan: InstallPlan; summary: InstallPlanSummary; explanation: string }> {
  let csvs: string[] = [];
  const updated = await decide(client, namespace, name, seen, (plan) => {
    if (plan.spec.approved)
      throw new ApiError(
        409,
        'Conflict',
        `InstallPlan ${name} is already approved; OLM cannot take an approval back. To undo what it installs, uninstall or install another version`,
      );
    csvs = plan.spec.clusterServiceVersionNames;
    const note = JSON.stringify({ at: new Date().toISOString(), ...(who ? { by: who } : {}) });
    return {
      ...plan,
      metadata: { ...plan.metadata, annotations: { ...plan.metadata?.annotations, [DENIED_ANNOTATION]: note } },
    };
  });
  return {
    plan: trimmed(updated),
    summary: installPlanSummary(updated),
    explanation: `InstallPlan ${name} stays unapproved: OLM installs nothing from it, and the operators it names (${csvs.join(', ')}) stay on their current versions. It stays listed as waiting; when the catalog offers a newer version OLM makes a new plan. To stop upgrades for good, switch the subscription to another channel or uninstall the operator.`,
  };
}

export interface SubscriptionChange {
  channel?: string;
  approval?: Approval;
  /** The channel ('' for the package's default) and approval the person saw. */
  seen?: { channel?: string; approval?: Approval };
}

/** Someone else changed what the person is about to change: say what it is now. */
function checkSeen(name: string, sub: Subscription, seen: SubscriptionChange['seen']): void {
  if (!seen) return;
  const now = { channel: sub.spec.channel ?? '', approval: sub.spec.installPlanApproval ?? 'Automatic' };
  const moved: string[] = [];
  if (seen.channel !== undefined && seen.channel !== now.channel)
    moved.push(`its channel is now ${now.channel || 'the default'} (you saw ${seen.channel || 'the default'})`);
  if (seen.approval !== undefined && seen.approval !== now.approval)
    moved.push(`its approval is now ${now.approval} (you saw ${seen.approval})`);
  if (moved.length)
    throw new ApiError(
      409,
      'Conflict',
      `Subscription ${name} was changed meanwhile: ${moved.join('; ')}; reload it and try again`,
      { resourceVersion: sub.metadata?.resourceVersion },
    );
}

export async function changeSubscription(
  client: KubeClient,
  namespace: string,
  name: string,
  change: SubscriptionChange,
): Promise<{ subscription: Subscription; warnings: string[] }> {
  // The PUT carries the version just read; when OLM writes status in between, read again and
  // re-check what the person saw (a few times: OLM settles quickly).
  for (let attempt = 1; ; attempt++) {
    const sub = await client.get<Subscription>(SUBSCRIPTION_TYPE, name, namespace);
    checkSeen(name, sub, change.seen);
    const warnings: string[] = [];
    const spec = { ...sub.spec };
    if (change.channel !== undefined && change.channel !== sub.spec.channel) {
      const verdict = await checkChannel(client, sub, change.channel, namespace);
      if (verdict.error)
        throw new ApiError(verdict.code ?? 409, verdict.code === 404 ? 'NotFound' : 'Conflict', verdict.error);
      if (verdict.warning) warnings.push(verdict.warning);
      spec.channel = change.channel;
    }
    if (change.approval !== undefined && change.approval !== (sub.spec.installPlanApproval ?? 'Automatic')) {
      spec.installPlanApproval = change.approval;
      const others = (await client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace })).items.filter(
        (s) => s.metadata?.name !== name,
      );
      if (others.length > 0) {
        warnings.push(
          change.approval === 'Manual'
            ? `OLM makes one InstallPlan per namespace: upgrades that touch ${others.map((s) => s.metadata?.name).join(', ')} together with ${name} will wait for approval too`
            : `other subscriptions in ${namespace} (${others.map((s) => s.metadata?.name).join(', ')}) keep their own approval; a plan shared with a Manual one still waits for approval`,
        );
      }
    }
    if (spec.channel === sub.spec.channel && spec.installPlanApproval === sub.spec.installPlanApproval) {
      return { subscription: trimmed(sub), warnings: ['nothing to change'] };
    }
    try {
      const updated = await client.replace<Subscription>(SUBSCRIPTION_TYPE, { ...sub, spec });
      return { subscription: trimmed(updated), warnings };
    } catch (err) {
      if (!isKubeError(err, 409) || attempt >= 5) throw err;
    }
  }
}

async function checkChannel(
  client: KubeClient,
  sub: Subscription,
  channel: string,
  namespace: string,
): Promise<{ error?: string; code?: number; warning?: string }> {
  const lookup = await catalogIndexOf(client).lookupPackage(
    client,
    { namespace: sub.spec.sourceNamespace, catalog: sub.spec.source, package: sub.spec.name },
    [namespace],
  );
  if (!lookup)
    return {
      warning: `the catalog ${sub.spec.sourceNamespace}/${sub.spec.source} could not be read, so channel ${channel} was not checked`,
    };
  const channels =
    lookup.source === 'registry'
      ? [...lookup.pkg.channels.keys()].sort()
      : lookup.manifest.status.channels.map((c) => c.name).sort();
  if (!channels.includes(channel))
    return {
      code: 404,
      error: `package ${sub.spec.name} has no channel ${channel}; its channels are ${channels.join(', ')}`,
    };
  const installedName = sub.status?.installedCSV;
  if (!installedName) return {};
  if (lookup.source === 'packagemanifests') {
    const entries = lookup.manifest.status.channels.find((c) => c.name === channel)?.entries ?? [];
    return entries.some((e) => e.name === installedName)
      ? {}
      : {
          warning: `the catalog is readable only through PackageManifests, which carry no upgrade edges: whether ${channel} upgrades from ${installedName} could not be checked`,
        };
  }
  let version: string | undefined;
  try {
    version = (await client.get<ClusterServiceVersion>(CSV_TYPE, installedName, namespace)).spec.version;
  } catch (err) {
    if (!isKubeError(err, 404) && !isKubeError(err, 403)) throw err;
  }
  const verdict = channelSwitch(packageChannelGraph(lookup.pkg, channel)!, { name: installedName, version });
  if (!verdict.ok) return { error: verdict.message };
  return verdict.next
    ? {
        warning: `OLM will upgrade ${installedName} to ${verdict.next} in channel ${channel}${sub.spec.installPlanApproval === 'Manual' ? ' once you approve the plan' : ''}`,
      }
    : {};
}

/** What an install's progress view shows: Subscription → InstallPlan → CSV, each as it stands. */
type InstalledFacts = Pick<NonNullable<SubscriptionProgress['csv']>, 'initializationResource' | 'ownedApis'>;

/** What an install page offers once the CSV runs: the resource it asks for, and what it owns. */
function installedFacts(desc: ReturnType<typeof describeCsv>): InstalledFacts {
  return { initializationResource: desc.initializationResource, ownedApis: ownedApisOf(desc) };
}

export async function subscriptionProgress(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<SubscriptionProgress> {
  const sub = await client.get<Subscription>(SUBSCRIPTION_TYPE, name, namespace);
  const plans = (
    await client.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace }).catch((err: unknown) => {
      if (isKubeError(err, 403)) return { items: [] as InstallPlan[] };
      throw err;
    })
  ).items;
  const planName = sub.status?.installPlanRef?.name ?? sub.status?.installplan?.name;
  const plan = plans.find((p) => p.metadata?.name === planName);
  const csvName = sub.status?.installedCSV ?? sub.status?.currentCSV;
  let csv: ClusterServiceVersion | undefined;
  if (csvName) {
    try {
      csv = await client.get<ClusterServiceVersion>(CSV_TYPE, csvName, namespace);
    } catch (err) {
      if (!isKubeError(err, 404) && !isKubeError(err, 403)) throw err;
    }
  }
  return {
    subscription: trimmed(sub),
    conditions: subscriptionConditionRows(sub),
    upgrade: subscriptionUpgradeStatus({ subscription: sub, installPlans: plans }),
    ...(plan
      ? {
          installPlan: {
            name: plan.metadata?.name ?? '',
            resourceVersion: plan.metadata?.resourceVersion,
            summary: installPlanSummary(plan),
            components: (plan.status?.plan ?? []).map((s) => ({
              kind: s.resource.kind,
              name: s.resource.name,
              status: s.status,
            })),
          },
        }
      : {}),
    ...(csv
      ? {
          csv: {
            name: csv.metadata?.name ?? '',
            phase: csv.status?.phase ?? '',
            reason: csv.status?.reason ?? '',
            message: csv.status?.message,
            status: csvDisplayStatus(csv),
            ...installedFacts(describeCsv(csv as unknown as CsvLike)),
            conditions: (csv.status?.conditions ?? []).map((c) => ({
              phase: c.phase,
              reason: c.reason,
              message: c.message,
              lastTransitionTime: c.lastTransitionTime,
            })),
          },
        }
      : {}),
  };
}
