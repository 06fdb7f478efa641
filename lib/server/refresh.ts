// Refreshing a failing Subscription, as the person: gather what lib/olm's planner needs (the
// Subscription, the namespace's InstallPlans, its CSV, the bundle unpack Jobs and OLM's ConfigMaps
// in the catalog's namespace, its CatalogSource's uid, after a failed unpack the bundle images the
// catalog resolves it to, what the person may do), and apply the plan through the shared
// resubscribe steps.
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import {
  BUNDLE_UNPACK_REF_LABEL,
  planRefresh,
  resolvedBundleImages,
  type OwnerRef,
  type RefreshPlan,
  type UnpackConfigMap,
  type UnpackJob,
} from '../olm/install/refresh';
import { CATALOG_SOURCE_TYPE, type CatalogSource } from '../olm/resources/catalog-source';
import { catalogIndexOf } from './fleet/catalog-indexes';
import { CSV_TYPE, type ClusterServiceVersion } from '../olm/resources/cluster-service-version';
import type { ResourceType } from '../olm/resources/common';
import { INSTALL_PLAN_TYPE, type InstallPlan } from '../olm/resources/install-plan';
import { SUBSCRIPTION_TYPE, type Subscription } from '../olm/resources/subscription';
import { ApiError } from './api-error';
import { accessReview } from './permissions';
import { resubscribe, type Removal, type ResubscribeResult } from './resubscribe';
import type { RefreshView } from '../api/resubscribe';
import { CONFIG_MAP_TYPE, JOB_TYPE } from '../k8s/core-kinds';
export type { RefreshView } from '../api/resubscribe';

const TYPES: Record<string, ResourceType> = {
  InstallPlan: INSTALL_PLAN_TYPE,
  Job: JOB_TYPE,
  ConfigMap: CONFIG_MAP_TYPE,
};

type Meta = { name?: string; namespace?: string; labels?: Record<string, string>; ownerReferences?: OwnerRef[] };
type Job = {
  metadata?: Meta;
  spec?: {
    template?: {
      spec?: { containers?: { image?: string }[]; initContainers?: { name?: string; image?: string }[] };
    };
  };
  status?: { failed?: number; conditions?: { type: string; status: string }[] };
};

async function unpackJobs(client: KubeClient, namespace: string): Promise<UnpackJob[] | string> {
  try {
    const jobs = (await client.listAll<Job>(JOB_TYPE, { namespace, labelSelector: BUNDLE_UNPACK_REF_LABEL })).items;
    return jobs.map((j) => {
      const pod = j.spec?.template?.spec;
      return {
        namespace,
        name: j.metadata?.name ?? '',
        ...(j.metadata?.labels ? { labels: j.metadata.labels } : {}),
        ...(j.metadata?.ownerReferences ? { ownerReferences: j.metadata.ownerReferences } : {}),
        ...(pod?.initContainers?.find((c) => c.name === 'pull')?.image
          ? { pullImage: pod.initContainers.find((c) => c.name === 'pull')!.image! }
          : {}),
        images: [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])].map((c) => c.image ?? '').filter(Boolean),
        failed:
          (j.status?.failed ?? 0) > 0 ||
          !!j.status?.conditions?.some((c) => c.type === 'Failed' && c.status === 'True'),
      };
    });
  } catch (err) {
    if (isKubeError(err, 403)) return `you may not list Jobs in ${namespace}`;
    // A cluster without the batch API has no unpack Jobs to clean up.
    if (isKubeError(err, 404)) return [];
    throw err;
  }
}

/** The ConfigMaps OLM labels olm.managed in the catalog's namespace (the unpack ones among them). */
async function unpackConfigMaps(client: KubeClient, namespace: string): Promise<UnpackConfigMap[] | string> {
  try {
    const cms = (
      await client.listAll<{ metadata?: Meta }>(CONFIG_MAP_TYPE, { namespace, labelSelector: 'olm.managed=true' })
    ).items;
    return cms.map((c) => ({
      name: c.metadata?.name ?? '',
      ...(c.metadata?.labels ? { labels: c.metadata.labels } : {}),
      ...(c.metadata?.ownerReferences ? { ownerReferences: c.metadata.ownerReferences } : {}),
    }));
  } catch (err) {
    if (isKubeError(err, 403)) return `you may not list ConfigMaps in ${namespace}`;
    throw err;
  }
}

/** The Subscription's CatalogSource's uid, as the person reads it. */
async function catalogUid(client: KubeClient, sub: Subscription): Promise<string | undefined> {
  try {
    const cs = await client.get<CatalogSource>(CATALOG_SOURCE_TYPE, sub.spec.source, sub.spec.sourceNamespace);
    return cs.metadata?.uid;
  } catch (err) {
    if (isKubeError(err, 403) || isKubeError(err, 404)) return undefined;
    throw err;
  }
}

/** The bundle images the Subscription resolves to, from its catalog as the person sees it. */
async function resolvedImages(client: KubeClient, sub: Subscription): Promise<string[] | string> {
  const ref = { namespace: sub.spec.sourceNamespace, catalog: sub.spec.source, package: sub.spec.name };
  const lookup = await catalogIndexOf(client).lookupPackage(client, ref, [sub.metadata?.namespace ?? '']);
  if (!lookup) return `the package ${ref.package} is not in ${ref.namespace}/${ref.catalog} for you`;
  if (lookup.source !== 'registry') return `the catalog ${ref.namespace}/${ref.catalog} could not be read`;
  return resolvedBundleImages(sub, lookup.pkg);
}

async function gather(
  client: KubeClient,
  namespace: string,
  name: string,
): Promise<{ sub: Subscription; plan: RefreshPlan }> {
  const sub = await client.get<Subscription>(SUBSCRIPTION_TYPE, name, namespace);
  const csvName = sub.status?.installedCSV ?? sub.status?.currentCSV;
  const unpackFailed = !!sub.status?.conditions?.some((c) => c.type === 'BundleUnpackFailed' && c.status === 'True');
  const [plans, csv, jobs, cms, csUid, images, delSub, delCsv, createSub, delPlans] = await Promise.all([
    client.listAll<InstallPlan>(INSTALL_PLAN_TYPE, { namespace }).then((l) => l.items),
    csvName
      ? client
          .get<ClusterServiceVersion>(CSV_TYPE, csvName, namespace)
          .catch((err) => (isKubeError(err, 404) ? undefined : Promise.reject(err)))
      : Promise.resolve(undefined),
    unpackJobs(client, sub.spec.sourceNamespace),
    unpackConfigMaps(client, sub.spec.sourceNamespace),
    catalogUid(client, sub),
    unpackFailed ? resolvedImages(client, sub) : Promise.resolve([]),
    accessReview(client, 'delete', SUBSCRIPTION_TYPE.group, SUBSCRIPTION_TYPE.plural, namespace),
    accessReview(client, 'delete', CSV_TYPE.group, CSV_TYPE.plural, namespace),
    accessReview(client, 'create', SUBSCRIPTION_TYPE.group, SUBSCRIPTION_TYPE.plural, namespace),
    accessReview(client, 'delete', INSTALL_PLAN_TYPE.group, INSTALL_PLAN_TYPE.plural, namespace),
  ]);
  const plan = planRefresh({
    subscription: sub,
    plans,
    ...(csv ? { csv: { name: csv.metadata?.name ?? '', phase: csv.status?.phase } } : {}),
    unpackJobs: jobs,
    unpackConfigMaps: cms,
    ...(csUid ? { catalogUid: csUid } : {}),
    resolvedImages: images,
    denied: {
      ...(delSub.allowed ? {} : { deleteSubscription: delSub.reason }),
      ...(delCsv.allowed ? {} : { deleteCsv: delCsv.reason }),
      ...(createSub.allowed ? {} : { createSubscription: createSub.reason }),
      ...(delPlans.allowed ? {} : { deleteInstallPlans: delPlans.reason }),
    },
  });
  return { sub, plan };
}

export async function refreshView(client: KubeClient, namespace: string, name: string): Promise<RefreshView> {
  return { plan: (await gather(client, namespace, name)).plan };
}

/** Plans again and applies it; a Subscription that is not failing (any more) is left alone. */
export async function applyRefresh(client: KubeClient, namespace: string, name: string): Promise<ResubscribeResult> {
  const { sub, plan } = await gather(client, namespace, name);
  if (plan.blockers.length) throw new ApiError(409, 'Conflict', plan.blockers.join('; '), { blockers: plan.blockers });
  const also: Removal[] = plan.steps
    .filter((s) => s.action === 'delete' && s.kind in TYPES)
    .map((s) => ({ type: TYPES[s.kind]!, namespace: s.namespace, name: s.name }));
  const csv = plan.steps.find((s) => s.kind === 'ClusterServiceVersion')?.name;
  return resubscribe(client, {
    namespace,
    original: sub,
    ...(csv ? { csv } : {}),
    also,
    next: plan.subscription,
    describeNext: 'as it was',
  });
}
