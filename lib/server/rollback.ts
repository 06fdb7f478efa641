// Rolling an operator back to an earlier version, as the person: gather what lib/olm's planner
// needs (the Subscription that installed the CSV, the channel's earlier versions from the
// registry, the cluster's CRDs and the earlier bundle's, what the person may do), and apply the
// plan — Subscription and CSV deleted, the Subscription made again at the earlier version — putting
// the original Subscription back if the new one cannot be made.
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import { planRollback, type BundleCrd, type ClusterCrd, type RollbackFacts } from '../olm/install/rollback';
import { CSV_TYPE, type ClusterServiceVersion } from '../olm/resources/cluster-service-version';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { compareVersions, tryParseVersion } from '../olm/semver/version';
import type { PackageModel } from '../olm/fbc/model';
import { z } from 'zod';
import { ApiError } from './api-error';
import { accessReview } from './permissions';
import { resubscribe } from './resubscribe';
import type { RollbackResult, RollbackView } from '../api/rollback';
import { CRD_TYPE } from '../k8s/core-kinds';
import { catalogIndexOf } from './fleet/catalog-indexes';
import { bundleManifests } from './bundle-images/bundle-manifests';
export type { RollbackResult, RollbackView } from '../api/rollback';

type Crd = {
  metadata?: { name?: string };
  spec?: { versions?: BundleCrd['versions'] };
  status?: { storedVersions?: string[] };
};

async function gather(
  client: KubeClient,
  namespace: string,
  csvName: string,
): Promise<{
  csv: ClusterServiceVersion;
  sub: Subscription;
  earlier: RollbackView['earlier'];
  address?: string;
  channel: string;
  /** The catalog's bundles of the package, for a bundle whose registry answer holds no manifests. */
  bundles?: PackageModel['bundles'];
  problem?: string;
}> {
  const csv = await client.get<ClusterServiceVersion>(CSV_TYPE, csvName, namespace);
  if (csv.metadata?.labels?.['olm.copiedFrom'])
    throw new ApiError(
      400,
      'BadRequest',
      `${csvName} in ${namespace} is a copy of the operator installed in ${csv.metadata.labels['olm.copiedFrom']}: roll it back there`,
    );
  const subs = (await client.listAll<Subscription>(SUBSCRIPTION_TYPE, { namespace })).items;
  const sub =
    subs.find((s) => s.status?.installedCSV === csvName) ?? subs.find((s) => s.status?.currentCSV === csvName);
  if (!sub)
    throw new ApiError(
      409,
      'Conflict',
      `no Subscription in ${namespace} has ${csvName} installed: there is nothing to re-subscribe`,
    );
  const lookup = await catalogIndexOf(client).lookupPackage(
    client,
    { namespace: sub.spec.sourceNamespace, catalog: sub.spec.source, package: sub.spec.name },
    [namespace],
  );
  if (!lookup)
    return {
      csv,
      sub,
      earlier: [],
      channel: sub.spec.channel ?? '',
      problem: `package ${sub.spec.name} is not in catalog ${sub.spec.sourceNamespace}/${sub.spec.source} (or you may not see it)`,
    };
  if (lookup.source !== 'registry')
    return {
      csv,
      sub,
      earlier: [],
      channel: sub.spec.channel ?? '',
      problem: "the catalog is readable only through PackageManifests, which list only each channel's head",
    };
  const channel = sub.spec.channel || lookup.pkg.defaultChannel || '';
  const installedVersion = tryParseVersion(csv.spec.version);
  const entries = lookup.pkg.channels.get(channel)?.entries ?? [];
  const earlier = entries
    .map((e) => ({ csvName: e.name, version: lookup.pkg.bundles.get(e.name)?.version }))
    .filter((e) => {
      const v = tryParseVersion(e.version);
      return e.csvName !== csvName && !!v && !!installedVersion && compareVersions(v, installedVersion) < 0;
    })
    .sort((a, b) => compareVersions(tryParseVersion(b.version)!, tryParseVersion(a.version)!));
  return { csv, sub, earlier, address: lookup.address, channel, bundles: lookup.pkg.bundles };
}

async function clusterCrds(client: KubeClient, csv: ClusterServiceVersion): Promise<ClusterCrd[] | string> {
  const names = (csv.spec.customresourcedefinitions?.owned ?? []).map((d) => d.name);
  try {
    const out: ClusterCrd[] = [];
    for (const name of [...new Set(names)]) {
      try {
        const crd = await client.get<Crd>(CRD_TYPE, name);
        out.push({ name, versions: crd.spec?.versions ?? [], storedVersions: crd.status?.storedVersions ?? [] });
      } catch (err) {
        if (!isKubeError(err, 404)) throw err;
      }
    }
    return out;
  } catch (err) {
    if (isKubeError(err, 403)) return `you may not read CustomResourceDefinitions: ${(err as Error).message}`;
    throw err;
  }
}

/**
 * The CRDs the earlier bundle ships: from the catalog's registry, else (a bundle given by image
 * only, for which the registry has no manifests) from its image, as the package page reads it;
 * or why they are not known. Never the none a registry's made-up CSV would suggest.
 */
async function targetBundleCrds(
  client: KubeClient,
  g: Awaited<ReturnType<typeof gather>>,
  target: string,
): Promise<Record<string, unknown>[] | string> {
  const served = await catalogIndexOf(client).bundleCrds(g.address ?? '', g.sub.spec.name, g.channel, target);
  const model = g.bundles?.get(target);
  if (typeof served !== 'string' || !model) return served;
  const read = await bundleManifests({ name: target, image: model.image, properties: model.properties }, undefined, {
    client,
    catalog: { kind: 'CatalogSource', namespace: g.sub.spec.sourceNamespace, name: g.sub.spec.source },
  });
  if ('unknown' in read) return `${served}; ${read.unknown}`;
  return read.others.filter((o) => o.kind === 'CustomResourceDefinition');
}

const csvName = z
  .string()
  .min(1, 'must not be empty')
  .max(253)
  .regex(/^[a-z0-9]([-a-z0-9.+]*[a-z0-9])?$/, 'must be a CSV name (lowercase letters, digits, "-", "." and "+")');

/** The version to go back to: the body of a rollback and of its plan. */
export const RollbackBody = z.strictObject({ to: csvName });

export async function rollbackView(
  client: KubeClient,
  namespace: string,
  csvName: string,
  target?: string,
): Promise<RollbackView> {
  const g = await gather(client, namespace, csvName);
  const view: RollbackView = {
    installed: { csvName, version: g.csv.spec.version },
    subscription: g.sub.metadata?.name ?? '',
    ...(g.channel ? { channel: g.channel } : {}),
    earlier: g.earlier,
  };
  if (g.problem)
    throw new ApiError(409, 'Conflict', `the earlier versions of ${g.sub.spec.name} cannot be listed: ${g.problem}`);
  if (!target) return view;
  const found = g.earlier.find((e) => e.csvName === target || e.version === target);
  const targetRef = found ?? { csvName: target };
  const [crds, targetCrds, delSub, delCsv, createSub] = await Promise.all([
    clusterCrds(client, g.csv),
    found ? targetBundleCrds(client, g, found.csvName) : Promise.resolve('not an earlier version of the channel'),
    accessReview(client, 'delete', SUBSCRIPTION_TYPE.group, SUBSCRIPTION_TYPE.plural, namespace),
    accessReview(client, 'delete', CSV_TYPE.group, CSV_TYPE.plural, namespace),
    accessReview(client, 'create', SUBSCRIPTION_TYPE.group, SUBSCRIPTION_TYPE.plural, namespace),
  ]);
  const facts: RollbackFacts = {
    namespace,
    subscription: g.sub,
    installed: view.installed,
    target: targetRef,
    earlier: g.earlier,
    clusterCrds: crds,
    targetCrds:
      typeof targetCrds === 'string'
        ? targetCrds
        : targetCrds.map((c) => ({
            name: (c.metadata as { name?: string } | undefined)?.name ?? '',
            versions: (c.spec as { versions?: BundleCrd['versions'] } | undefined)?.versions ?? [],
          })),
    denied: {
      ...(delSub.allowed ? {} : { deleteSubscription: delSub.reason }),
      ...(delCsv.allowed ? {} : { deleteCsv: delCsv.reason }),
      ...(createSub.allowed ? {} : { createSubscription: createSub.reason }),
    },
  };
  return { ...view, target: targetRef.csvName, plan: planRollback(facts) };
}

/**
 * Plans again (the browser's plan is not trusted) and applies it: the CSV named is the one the
 * person looked at, and if no Subscription has it installed any more, nothing is done (gather's 409).
 */
export async function applyRollback(
  client: KubeClient,
  namespace: string,
  csvName: string,
  target: string,
): Promise<RollbackResult> {
  const view = await rollbackView(client, namespace, csvName, target);
  const plan = view.plan!;
  if (plan.blocked)
    throw new ApiError(
      409,
      'Conflict',
      plan.risks
        .filter((r) => r.level === 'blocker')
        .map((r) => r.message)
        .join('; '),
      { risks: plan.risks },
    );
  const original = await client.get<Subscription>(SUBSCRIPTION_TYPE, view.subscription, namespace);
  return resubscribe(client, {
    namespace,
    original,
    csv: csvName,
    also: [],
    next: plan.subscription,
    describeNext: `starting at ${view.target}`,
  });
}
