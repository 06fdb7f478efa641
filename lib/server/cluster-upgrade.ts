// Cluster-upgrade readiness, read as the person: every installed operator (a Subscription with its
// installed CSV) against an OpenShift minor — its `olm.maxOpenShiftVersion` as OLM judges it, its
// own Upgradeable=False (which also holds back the upgrade that would clear a blocker), the
// deprecations its Subscription reports — and, for a maxOpenShiftVersion blocker, the nearest
// version on its channel's path that clears it.
import type { ReadinessReport, ReadinessRow } from '../api/cluster-upgrade';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import { kubeRequest } from '../k8s/http';
import {
  blocksTarget,
  formatMinor,
  maxOpenShiftVersionOf,
  nextMinor,
  parseMinor,
  type Minor,
} from '../olm/cluster-upgrade/max-openshift-version';
import { firstClearing } from '../olm/cluster-upgrade/way-out';
import { packageChannelGraph } from '../olm/graph/from-model';
import { updatePath } from '../olm/graph/update-path';
import { CSV_TYPE, type ClusterServiceVersion } from '../olm/resources/cluster-service-version';
import { str } from '../olm/resources/csv-description';
import type { ResourceType } from '../olm/resources/common';
import { OPERATOR_CONDITION_TYPE, upgradeBlock, type OperatorCondition } from '../olm/resources/operator-condition';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { subscriptionDeprecation } from '../olm/status/deprecation';
import { CLUSTER_VERSION_TYPE } from '../k8s/core-kinds';
import { catalogIndexOf } from './fleet/catalog-indexes';

async function clusterVersion(client: KubeClient): Promise<ReadinessReport['cluster']> {
  try {
    const cv = await client.get<{ status?: { desired?: { version?: string } } }>(CLUSTER_VERSION_TYPE, 'version');
    if (cv.status?.desired?.version) return { kind: 'openshift', version: cv.status.desired.version };
  } catch (err) {
    if (!isKubeError(err, 404) && !isKubeError(err, 403)) throw err;
  }
  const v = await kubeRequest<{ gitVersion?: string }>(client.kubeConfig, {
    method: 'GET',
    path: '/version',
    what: 'read /version',
  });
  return { kind: 'kubernetes', version: v.gitVersion ?? 'unknown' };
}

async function listOr<T extends object>(
  client: KubeClient,
  t: ResourceType,
  problems: string[],
  what: string,
): Promise<T[]> {
  try {
    return (await client.listAll<T>(t)).items;
  } catch (err) {
    if (!isKubeError(err, 403)) throw err;
    problems.push(`you may not list ${what} in every namespace, so operators elsewhere are not checked`);
    return [];
  }
}

export async function clusterUpgradeReadiness(client: KubeClient, targetText?: string): Promise<ReadinessReport> {
  const problems: string[] = [];
  const [cluster, subs, csvs, conditions] = await Promise.all([
    clusterVersion(client),
    listOr<Subscription>(client, SUBSCRIPTION_TYPE, problems, 'Subscriptions'),
    listOr<ClusterServiceVersion>(client, CSV_TYPE, problems, 'ClusterServiceVersions'),
    listOr<OperatorCondition>(client, OPERATOR_CONDITION_TYPE, problems, 'OperatorConditions'),
  ]);
  const current = cluster.kind === 'openshift' ? parseMinor(cluster.version) : undefined;
  const target: Minor | undefined = parseMinor(targetText) ?? (current ? nextMinor(current) : undefined);
  const byKey = new Map(
    csvs
      .filter((c) => !c.metadata?.labels?.['olm.copiedFrom'])
      .map((c) => [`${c.metadata?.namespace}/${c.metadata?.name}`, c]),
  );
  const rows: ReadinessRow[] = [];
  const blocking: string[] = [];
  for (const sub of subs) {
    const ns = sub.metadata?.namespace ?? '';
    const name = sub.status?.installedCSV;
    if (!name) continue;
    const csv = byKey.get(`${ns}/${name}`);
    const row: ReadinessRow = {
      namespace: ns,
      subscription: sub.metadata?.name ?? '',
      package: sub.spec.name,
      csv: name,
      ...(csv?.spec.version ? { version: csv.spec.version } : {}),
      // A CSV's fields are whatever its author wrote: a display name only when it is text.
      ...(str(csv?.spec.displayName) ? { displayName: str(csv?.spec.displayName) } : {}),
      blockers: [],
    };
    const max = maxOpenShiftVersionOf(csv?.metadata?.annotations);
    if (max.kind === 'invalid') {
      row.maxOpenShiftVersion = `invalid: ${max.error}`;
      row.blockers.push({
        kind: 'maxOpenShiftVersion',
        message: `${ns}/${name} has invalid olm.maxOpenShiftVersion properties: ${max.error}`,
      });
      blocking.push(`- ${ns}/${name} has invalid olm.maxOpenShiftVersion properties: ${max.error}`);
    } else if (max.kind === 'max') {
      row.maxOpenShiftVersion = max.text;
      if (target && blocksTarget(max.max, target)) {
        row.blockers.push({
          kind: 'maxOpenShiftVersion',
          message: `runs on OpenShift up to ${max.text}, not ${formatMinor(target)}`,
        });
        blocking.push(`- maximum supported OCP version for ${ns}/${name} is ${max.text}`);
        await addWayOut(client, sub, row, target);
      }
    }
    const oc = conditions.find((c) => c.metadata?.namespace === ns && c.metadata?.name === name);
    const held = oc ? upgradeBlock(oc) : undefined;
    if (held?.blocked)
      row.blockers.push({
        kind: 'upgradeable',
        message: `the operator holds back its own upgrades (${held.message})${row.wayOut ? ', so the way out waits for it' : ''}`,
      });
    const dep = subscriptionDeprecation(sub);
    if (dep) row.blockers.push({ kind: 'deprecated', message: dep.text });
    rows.push(row);
  }
  rows.sort(
    (a, b) =>
      b.blockers.length - a.blockers.length || a.namespace.localeCompare(b.namespace) || a.csv.localeCompare(b.csv),
  );
  // OLM's ClusterOperator message (skews.String()): invalid properties first, then the others.
  const olmMessage =
    target && blocking.length
      ? `ClusterServiceVersions blocking minor version upgrades to ${formatMinor(target)} or higher:\n${[...blocking.filter((b) => b.includes('invalid')), ...blocking.filter((b) => !b.includes('invalid'))].join('\n')}`
      : undefined;
  return {
    cluster,
    ...(target ? { target: formatMinor(target) } : {}),
    ...(olmMessage ? { olmMessage } : {}),
    rows,
    problems: [...new Set(problems)],
  };
}

async function addWayOut(client: KubeClient, sub: Subscription, row: ReadinessRow, target: Minor): Promise<void> {
  try {
    const lookup = await catalogIndexOf(client).lookupPackage(
      client,
      { namespace: sub.spec.sourceNamespace, catalog: sub.spec.source, package: sub.spec.name },
      [row.namespace],
    );
    if (!lookup || lookup.source !== 'registry') {
      row.noWayOut = lookup
        ? 'the catalog is readable only through PackageManifests, which carry no upgrade edges'
        : `package ${sub.spec.name} is not in catalog ${sub.spec.sourceNamespace}/${sub.spec.source}`;
      return;
    }
    const channel = sub.spec.channel || lookup.pkg.defaultChannel || '';
    const graph = packageChannelGraph(lookup.pkg, channel);
    if (!graph) {
      row.noWayOut = `channel ${channel} is not in the catalog`;
      return;
    }
    const path = updatePath(graph, { name: row.csv, ...(row.version ? { version: row.version } : {}) });
    const found = firstClearing(path.steps, (c) => lookup.pkg.bundles.get(c)?.maxOpenShiftVersion, target);
    if (found)
      row.wayOut = {
        ...found,
        channel,
        ...(lookup.pkg.bundles.get(found.to)?.version ? { version: lookup.pkg.bundles.get(found.to)!.version } : {}),
      };
    else
      row.noWayOut = `no version on channel ${channel} after ${row.csv} runs on ${formatMinor(target)}: look at the other channels, or uninstall before the cluster upgrade`;
  } catch (err) {
    row.noWayOut = `the catalog could not be read: ${(err as Error).message}`;
  }
}
