// Day two, read as the person: the installed operators of a namespace or of the cluster (OLM v0's
// CSVs and, where the person may list them, OLM v1's ClusterExtensions), and one
// operator's whole picture (CSV, Subscription, InstallPlans, OperatorGroup, events, the path to
// its channel head).
import { graphFromModel } from '../catalog/graph-view';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import {
  isCopiedCsv,
  isReplacementOf,
  operatorNamespaceOf,
  CSV_TYPE,
  type ClusterServiceVersion,
} from '../olm/resources/cluster-service-version';
import { Keys, type ResourceType } from '../olm/resources/common';
import { describeCsv } from '../olm/resources/csv-description';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../olm/resources/install-plan';
import { copiedCsvsDisabled, OLM_CONFIG_NAME, OLM_CONFIG_TYPE, type OLMConfig } from '../olm/resources/olm-config';
import { OPERATOR_GROUP_TYPE, type OperatorGroup } from '../olm/resources/operator-group';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { csvDisplayStatus } from '../olm/status/csv-status';
import { installedOperators } from '../olm/status/installed-operators';
import { installPlanSummary } from '../olm/status/install-plan-status';
import { subscriptionConditionRows, subscriptionUpgradeStatus } from '../olm/status/subscription-status';
import type { ChannelOption, InstalledOperatorsResponse, OperatorDetails } from '../api/operators';
import type { PackageModel } from '../olm/fbc/model';
import { packageChannelGraph } from '../olm/graph/from-model';
import { channelSwitch, type InstalledCsv } from '../olm/graph/update-path';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { OPERATOR_CONDITION_TYPE, upgradeBlock, type OperatorCondition } from '../olm/resources/operator-condition';
import { catalogHealth, type CatalogHealth } from '../olm/status/catalog-health';
import { ApiError } from './api-error';
import { NAMESPACE_TYPE } from './install';
import { EVENT_TYPE } from '../k8s/core-kinds';
import { extensionRows } from './olm-v1/extension-rows';
import { catalogIndexOf } from './fleet/catalog-indexes';

/** Objects as the browser gets them: without the server-side apply bookkeeping. */
export function trimmed<T extends object>(o: T): T {
  const meta = (o as { metadata?: Record<string, unknown> }).metadata;
  if (!meta?.managedFields) return o;
  const rest = { ...meta };
  delete rest.managedFields;
  return { ...o, metadata: rest };
}

async function namespaceCount(client: KubeClient): Promise<number | undefined> {
  try {
    const page = await client.list(NAMESPACE_TYPE, { limit: 1 });
    return page.items.length + (page.metadata.remainingItemCount ?? 0);
  } catch (err) {
    if (isKubeError(err, 403)) return undefined;
    throw err;
  }
}

async function olmConfig(client: KubeClient): Promise<OLMConfig | undefined> {
  try {
    return await client.get<OLMConfig>(OLM_CONFIG_TYPE, OLM_CONFIG_NAME);
  } catch (err) {
    if (isKubeError(err, 403) || isKubeError(err, 404)) return undefined;
    throw err;
  }
}

/**
 * One namespace: every CSV there, copies included (each says where it comes from). All
 * namespaces: only the operators' own CSVs, read with a label selector that leaves the copies
 * on the server; each row counts its copies instead.
 */
export async function listInstalledOperators(
  client: KubeClient,
  namespace: string | undefined,
): Promise<InstalledOperatorsResponse> {
  const opts = namespace ? { namespace } : { labelSelector: `!${Keys.copiedFrom}` };
  const [csvs, subs, plans, count, config, extensions] = await Promise.all([
    client.listAll<ClusterServiceVersion>(CSV_TYPE, opts),
    client.listAll<Subscription>(SUBSCRIPTION_TYPE, namespace ? { namespace } : {}),
    client.listAll<InstallPlan>(INSTALL_PLAN_TYPE, namespace ? { namespace } : {}),
    namespaceCount(client),
    olmConfig(client),
    extensionRows(client, namespace),
  ]);
  // Copies can also be recognised only by annotation or reason; the selector cannot see those.
  const items = namespace ? csvs.items : csvs.items.filter((c) => !isCopiedCsv(c));
  const disabled = copiedCsvsDisabled(config);
  const operators = installedOperators({
    csvs: items,
    subscriptions: subs.items,
    installPlans: plans.items,
    namespaceCount: count,
    copiesDisabled: disabled,
  });
  return {
    namespace: namespace ?? null,
    copiedCsvsDisabled: disabled,
    copies: operators.filter((o) => o.copiedFrom).length,
    operators,
    ...(extensions ? { extensions } : {}),
  };
}

interface KubeEvent {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  eventTime?: string;
  metadata?: { creationTimestamp?: string; resourceVersion?: string };
  involvedObject?: { kind?: string; name?: string };
}

async function listOr<T extends object>(client: KubeClient, t: ResourceType, namespace: string): Promise<T[]> {
  try {
    return (await client.listAll<T>(t, { namespace })).items;
  } catch (err) {
    if (isKubeError(err, 403)) return [];
    throw err;
  }
}

export async function operatorDetails(client: KubeClient, namespace: string, name: string): Promise<OperatorDetails> {
  const csv = await client.get<ClusterServiceVersion>(CSV_TYPE, name, namespace);
  const copied = isCopiedCsv(csv);
  // A copy is replaced with its source: its page follows the Subscription where the operator is.
  const source = copied ? operatorNamespaceOf(csv) : undefined;
  // A copy's namespace may have a group of its own, for other operators: the copy's is where it runs.
  const copyGroup = source ? csv.metadata?.annotations?.[Keys.operatorGroup] : undefined;
  const [subs, plans, groups, events, conditions] = await Promise.all([
    listOr<Subscription>(client, SUBSCRIPTION_TYPE, namespace),
    listOr<InstallPlan>(client, INSTALL_PLAN_TYPE, namespace),
    listOr<OperatorGroup>(client, OPERATOR_GROUP_TYPE, source ?? namespace),
    listOr<KubeEvent>(client, EVENT_TYPE, namespace),
    listOr<OperatorCondition>(client, OPERATOR_CONDITION_TYPE, namespace),
  ]);
  const sub = copied ? undefined : subs.find((s) => s.status?.installedCSV === name || s.status?.currentCSV === name);
  const replacedBy =
    copied || sub?.status?.installedCSV === name ? undefined : await successorOf(client, namespace, name, subs);
  const sourceSubscription = source
    ? (await listOr<Subscription>(client, SUBSCRIPTION_TYPE, source)).find(
        (s) => s.status?.installedCSV === name || s.status?.currentCSV === name,
      )?.metadata?.name
    : undefined;
  const og = source ? groups.find((g) => g.metadata?.name === copyGroup) : groups[0];
  const ogTargets = og?.status?.namespaces ?? og?.spec?.targetNamespaces ?? [];
  const related = new Set([
    name,
    ...(sub ? [sub.metadata?.name ?? ''] : []),
    ...plans.map((p) => p.metadata?.name ?? ''),
  ]);
  const details: OperatorDetails = {
    csv: trimmed(csv),
    description: describeCsv(csv as unknown as Parameters<typeof describeCsv>[0], name),
    status: csvDisplayStatus(csv),
    ...(copied ? { copiedFrom: operatorNamespaceOf(csv) } : {}),
    ...(sourceSubscription ? { sourceSubscription } : {}),
    ...(replacedBy ? { replacedBy } : {}),
    ...(sub
      ? {
          subscription: {
            object: trimmed(sub),
            conditions: subscriptionConditionRows(sub),
            upgrade: subscriptionUpgradeStatus({ subscription: sub, installPlans: plans }),
          },
        }
      : {}),
    upgradeBlockers: [],
    installPlans: plans
      .map((p) => ({
        name: p.metadata?.name ?? '',
        summary: installPlanSummary(p),
        createdAt: p.metadata?.creationTimestamp,
        resourceVersion: p.metadata?.resourceVersion,
      }))
      .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? '')),
    ...(og
      ? {
          operatorGroup: {
            name: og.metadata?.name ?? '',
            namespace: og.metadata?.namespace ?? namespace,
            targets: ogTargets.length === 1 && ogTargets[0] === '' ? 'all' : ogTargets,
            createdByConsole: og.metadata?.labels?.['olm-console.io/created-by'] === 'olm-console',
            conditions: og.status?.conditions,
          },
        }
      : source && copyGroup
        ? { operatorGroup: { name: copyGroup, namespace: source, createdByConsole: false } }
        : {}),
    events: events
      .filter((e) => related.has(e.involvedObject?.name ?? ''))
      .map((e) => ({
        type: e.type,
        reason: e.reason,
        message: e.message,
        object: `${e.involvedObject?.kind ?? ''}/${e.involvedObject?.name ?? ''}`,
        count: e.count,
        lastTimestamp: e.lastTimestamp ?? e.eventTime ?? e.metadata?.creationTimestamp,
        rv: e.metadata?.resourceVersion,
      }))
      .sort((a, b) => (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? '') || newerFirst(a.rv, b.rv))
      .slice(0, 200)
      .map((e) => ({
        type: e.type,
        reason: e.reason,
        message: e.message,
        object: e.object,
        count: e.count,
        lastTimestamp: e.lastTimestamp,
      })),
  };
  if (sub) {
    const health = await catalogSourceHealth(client, sub.spec.sourceNamespace, sub.spec.source);
    if (health) details.catalog = { namespace: sub.spec.sourceNamespace, name: sub.spec.source, ...health };
    details.upgradeBlockers = upgradeBlockers(
      details,
      conditions.find((c) => c.metadata?.name === name),
      health,
    );
    try {
      const lookup = await catalogIndexOf(client).lookupPackage(
        client,
        { namespace: sub.spec.sourceNamespace, catalog: sub.spec.source, package: sub.spec.name },
        [namespace],
      );
      if (!lookup)
        details.updatePathProblem = `package ${sub.spec.name} is not in catalog ${sub.spec.sourceNamespace}/${sub.spec.source} (or you may not see it)`;
      else if (lookup.source === 'packagemanifests')
        details.updatePathProblem =
          'the catalog is readable only through PackageManifests, which do not carry upgrade edges';
      else {
        const view = graphFromModel(lookup.pkg, sub.spec.channel || undefined, sub.status?.installedCSV ?? name);
        if (view.path) details.updatePath = { ...view.path, channel: view.channel, head: view.head, edgesKnown: true };
        if (details.subscription)
          details.subscription.channels = channelOptions(lookup.pkg, view.channel, {
            name: sub.status?.installedCSV ?? name,
            version: csv.spec.version,
          });
      }
    } catch (err) {
      details.updatePathProblem = (err as Error).message;
    }
  }
  return details;
}

/**
 * The CSV a Subscription now has installed in place of `name` (OLM deletes `name` once that one
 * runs, or keeps both while the old one's Upgradeable=False holds the new one back).
 */
async function successorOf(
  client: KubeClient,
  namespace: string,
  name: string,
  subs: Subscription[],
): Promise<OperatorDetails['replacedBy']> {
  const candidates = subs.filter((s) => s.status?.installedCSV && s.status.installedCSV !== name);
  const found = await Promise.all(
    candidates.map(async (s) => {
      try {
        const next = await client.get<ClusterServiceVersion>(CSV_TYPE, s.status!.installedCSV!, namespace);
        return isReplacementOf(next, name)
          ? { csv: s.status!.installedCSV!, subscription: s.metadata?.name ?? '' }
          : undefined;
      } catch (err) {
        if (isKubeError(err, 404) || isKubeError(err, 403)) return undefined;
        throw err;
      }
    }),
  );
  return found.find((f) => f !== undefined);
}

/** Why the next upgrade would not happen now, each in words a person can act on. */
function upgradeBlockers(
  d: OperatorDetails,
  oc: OperatorCondition | undefined,
  health: CatalogHealth | undefined,
): string[] {
  const out: string[] = [];
  const pending = d.subscription?.upgrade.pendingApproval ?? [];
  if (pending.length)
    out.push(`InstallPlan ${pending.join(', ')} waits for approval (Manual approval in this namespace)`);
  const block = oc ? upgradeBlock(oc) : { blocked: false as const };
  if (block.blocked)
    out.push(
      `the ${block.message} (OperatorCondition ${oc!.metadata?.name}); OLM will not replace it until the operator says it is upgradeable again`,
    );
  if (health && !health.healthy)
    out.push(
      `the catalog ${d.catalog?.namespace}/${d.catalog?.name} is ${health.state}: OLM cannot resolve new versions from it`,
    );
  return out;
}

/** Each channel of the package, and whether OLM can move the installed CSV there (and to what). */
function channelOptions(pkg: PackageModel, current: string, installed: InstalledCsv): ChannelOption[] {
  return [...pkg.channels.keys()].sort().map((ch) => {
    if (ch === current) return { name: ch, current: true, allowed: true };
    const graph = packageChannelGraph(pkg, ch);
    if (!graph) return { name: ch, current: false, allowed: false, reason: `channel ${ch} has no readable graph` };
    const verdict = channelSwitch(graph, installed);
    return verdict.ok
      ? { name: ch, current: false, allowed: true, ...(verdict.next ? { next: verdict.next } : {}) }
      : { name: ch, current: false, allowed: false, reason: verdict.message };
  });
}

async function catalogSourceHealth(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<CatalogHealth | undefined> {
  try {
    return catalogHealth(await client.get<CatalogSource>(CATALOG_SOURCE_TYPE, name, namespace));
  } catch (err) {
    if (isKubeError(err, 403)) return undefined;
    if (isKubeError(err, 404))
      return {
        state: 'MISSING',
        healthy: false,
        explanation: `CatalogSource ${namespace}/${name} does not exist: the Subscription cannot resolve until it is created again.`,
      };
    throw err;
  }
}

export async function getInstallPlan(client: KubeClient, namespace: string, name: string): Promise<InstallPlan> {
  return client.get<InstallPlan>(INSTALL_PLAN_TYPE, name, namespace);
}

/** The Subscriptions an InstallPlan belongs to: colocated operators share one plan. */
export function planOwners(plan: InstallPlan, subs: readonly Subscription[]): string[] {
  const owners = new Set(
    (plan.metadata?.ownerReferences ?? []).filter((o) => o.kind === 'Subscription').map((o) => o.name),
  );
  for (const s of subs)
    if ((s.status?.installPlanRef?.name ?? s.status?.installplan?.name) === plan.metadata?.name)
      owners.add(s.metadata?.name ?? '');
  return [...owners].filter(Boolean).sort();
}

/** Refuses a write against an object that changed since the person looked at it. */
export function checkFresh(
  kind: string,
  name: string,
  current: string | undefined,
  seen: string | undefined,
  now: string,
): void {
  if (seen !== undefined && current !== seen) {
    throw new ApiError(
      409,
      'Conflict',
      `${kind} ${name} changed since you loaded it (${now}); reload it and try again`,
      { resourceVersion: current },
    );
  }
}

/**
 * Events carry times to the second, and an install writes several in one: within a second the
 * later write goes first. resourceVersions are opaque to clients, but kube-apiserver's (and the
 * sandbox's) are etcd revisions that grow; when either is not a number the order is left as is.
 */
function newerFirst(a: string | undefined, b: string | undefined): number {
  if (!a || !b || !/^\d+$/.test(a) || !/^\d+$/.test(b)) return 0;
  const d = BigInt(b) - BigInt(a);
  return d > 0n ? 1 : d < 0n ? -1 : 0;
}
