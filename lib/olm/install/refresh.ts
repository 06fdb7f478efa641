// "Refresh a failing Subscription", the documented repair for a Subscription OLM no longer moves:
// a failed InstallPlan is never retried, and a failed bundle unpack leaves its Job and ConfigMap in
// the catalog's namespace, which OLM reuses. The repair deletes those, the Subscription and its CSV
// (OLM refuses a Subscription made again while its package's CSV stays unreferenced), then makes
// the Subscription again with the same channel, approval, starting CSV and config. The CRDs and
// every instance stay. The unpack Job is found as OLM makes it (controller/bundle/bundle_unpacker.go):
// labelled `operatorframework.io/bundle-unpack-ref` with its ConfigMap's name, pulling the bundle
// image in its `pull` init container.
//
// Which bundle: a failed plan's bundleLookups name it; but when unpacking fails OLM v0.38.0 writes
// no plan (catalog/operator.go keeps the lookups in memory and sets only BundleUnpackFailed on the
// Subscription), so the bundle is then the catalog entry the Subscription resolves to, read by the
// caller. A catalog only names an image; the Job and ConfigMap are deleted only when the cluster
// shows OLM made them for it: both named from sha256 of that image reference (its 63 first hex
// digits; a successor Job the base cut to 58 and five generated characters), the Job labelled
// with that name, pulling that image and owned by the ConfigMap, the ConfigMap owned by the
// Subscription's CatalogSource.
import { createHash } from 'node:crypto';
import type { PackageModel } from '../fbc/model';
import { channelHeads } from '../graph/channel-problems';
import type { InstallPlan } from '../resources/install-plan';
import type { Subscription } from '../resources/subscription';
import { stoppedConditions, SUBSCRIPTION_TYPE } from '../resources/subscription';

export const BUNDLE_UNPACK_REF_LABEL = 'operatorframework.io/bundle-unpack-ref';

export interface OwnerRef {
  kind?: string;
  name?: string;
  uid?: string;
}

export interface UnpackJob {
  namespace: string;
  name: string;
  labels?: Record<string, string>;
  ownerReferences?: OwnerRef[];
  /** Every image of the Job's pod (containers and init containers). */
  images: string[];
  /** The image of the pod's `pull` init container, the bundle it unpacks. */
  pullImage?: string;
  failed: boolean;
}

/** A ConfigMap of the catalog's namespace an unpack Job names. */
export interface UnpackConfigMap {
  name: string;
  labels?: Record<string, string>;
  ownerReferences?: OwnerRef[];
}

/** OLM's name for a bundle image's unpack ConfigMap and Job (bundle_unpacker.go, hashing the reference). */
export function unpackName(image: string): string {
  return createHash('sha256').update(image).digest('hex').slice(0, 63);
}

/** apimachinery's SimpleNameGenerator: the base cut to 58 characters, then five of its alphabet. */
const GENERATED_SUFFIX = /^[bcdfghjklmnpqrstvwxz2456789]{5}$/;

/**
 * Whether the cluster shows OLM made `job` (and its ConfigMap) to unpack `image` for the
 * CatalogSource `catalogUid`: names, label, pull image and owners all as OLM sets them.
 */
export function madeToUnpack(
  job: UnpackJob,
  image: string,
  configMaps: readonly UnpackConfigMap[],
  catalogUid: string | undefined,
): UnpackConfigMap | undefined {
  const ref = unpackName(image);
  if (job.labels?.[BUNDLE_UNPACK_REF_LABEL] !== ref) return undefined;
  const named =
    job.name === ref || (job.name.startsWith(ref.slice(0, 58)) && GENERATED_SUFFIX.test(job.name.slice(58)));
  if (!named || job.name.length > 63 || job.pullImage !== image) return undefined;
  if (!job.ownerReferences?.some((o) => o.kind === 'ConfigMap' && o.name === ref)) return undefined;
  const cm = configMaps.find((c) => c.name === ref);
  if (!cm || cm.labels?.['olm.managed'] !== 'true' || !catalogUid) return undefined;
  return cm.ownerReferences?.some((o) => o.kind === 'CatalogSource' && o.uid === catalogUid) ? cm : undefined;
}

export interface RefreshFacts {
  subscription: Subscription;
  /** The namespace's InstallPlans. */
  plans: InstallPlan[];
  /** The CSV the Subscription names (installed or current), if it exists, with its phase. */
  csv?: { name: string; phase?: string };
  /** Bundle unpack Jobs in the catalog's namespace; a string says why they could not be listed. */
  unpackJobs: UnpackJob[] | string;
  /** ConfigMaps of the catalog's namespace labelled olm.managed; a string says why they could not be listed. */
  unpackConfigMaps?: UnpackConfigMap[] | string;
  /** The uid of the Subscription's CatalogSource, when it exists. */
  catalogUid?: string;
  /**
   * The bundle images of the catalog entries the Subscription resolves to (its starting CSV, or
   * its channel's head), read from the catalog; a string says why they are not known.
   */
  resolvedImages?: string[] | string;
  denied: { deleteSubscription?: string; deleteCsv?: string; createSubscription?: string; deleteInstallPlans?: string };
}

export interface RefreshStep {
  action: 'delete' | 'create';
  kind: 'InstallPlan' | 'Job' | 'ConfigMap' | 'ClusterServiceVersion' | 'Subscription';
  namespace: string;
  name: string;
  why: string;
}

export interface RefreshPlan {
  /** Why the Subscription is failing, in OLM's words; empty when it is not. */
  failing: string[];
  /**
   * Only a failed resolution, which OLM tries again by itself: the catalog operator resolves the
   * namespace anew on each change to its Subscriptions, CSVs, OperatorGroups or catalogs and at its
   * resync (syncResolvingNamespace), so the condition goes once its cause does — a moment later when
   * OLM raced itself making a dependency's Subscription. A failed plan or unpack is never re-run.
   */
  retriedByOlm: boolean;
  steps: RefreshStep[];
  subscription: Subscription;
  blockers: string[];
  notes: string[];
}

/**
 * The bundle images of the entries OLM resolves the Subscription to in its catalog's package: its
 * starting CSV while nothing is installed, else the entries that replace or skip the installed
 * CSV, else its channel's head(s). A string says why none is known.
 */
export function resolvedBundleImages(sub: Subscription, pkg: PackageModel): string[] | string {
  const channelName = sub.spec.channel || pkg.defaultChannel;
  const channel = channelName ? pkg.channels.get(channelName) : undefined;
  if (!channel) return `the catalog's package ${pkg.name} has no channel ${channelName ?? '(default)'}`;
  const installed = sub.status?.installedCSV;
  let names: string[];
  if (!installed && sub.spec.startingCSV) names = [sub.spec.startingCSV];
  else {
    const next = installed
      ? channel.entries
          .filter((e) => e.replaces === installed || (e.skips ?? []).includes(installed))
          .map((e) => e.name)
      : [];
    names = next.length ? next : channelHeads(channel.entries);
  }
  const images = names.map((n) => pkg.bundles.get(n)?.image).filter((i): i is string => !!i);
  return images.length ? images : `the catalog gives no bundle image for ${names.join(', ') || 'the channel'}`;
}

/** The plans this Subscription's status points to or that were made for it. */
function plansOf(sub: Subscription, plans: readonly InstallPlan[]): InstallPlan[] {
  const uid = sub.metadata?.uid;
  const ref = sub.status?.installPlanRef?.name ?? sub.status?.installplan?.name;
  return plans.filter(
    (p) => p.metadata?.name === ref || (uid && p.metadata?.ownerReferences?.some((o) => o.uid === uid)),
  );
}

export function planRefresh(f: RefreshFacts): RefreshPlan {
  const sub = f.subscription;
  const ns = sub.metadata?.namespace ?? '';
  const name = sub.metadata?.name ?? '';
  const failing: string[] = [];
  const stopped = stoppedConditions(sub.status?.conditions);
  for (const c of stopped)
    failing.push(`${c.type}${c.reason ? ` (${c.reason})` : ''}${c.message ? `: ${c.message}` : ''}`);
  const mine = plansOf(sub, f.plans);
  const failedPlans = mine.filter((p) => p.status?.phase === 'Failed');
  // A failed plan whose message a condition already quotes is not said twice.
  for (const p of failedPlans) {
    const msg = p.status?.message;
    if (!failing.some((x) => x.includes(p.metadata?.name ?? '') || (!!msg && x.includes(msg))))
      failing.push(`InstallPlan ${p.metadata?.name} failed${msg ? `: ${msg}` : ''}`);
  }

  const blockers: string[] = [];
  const notes: string[] = [];
  if (!failing.length)
    blockers.push(`Subscription ${name} is not failing: OLM is still moving it (nothing to refresh)`);
  for (const [what, reason] of [
    ['delete the Subscription', f.denied.deleteSubscription],
    ['delete ClusterServiceVersions', f.denied.deleteCsv],
    ['create the Subscription', f.denied.createSubscription],
    ['delete InstallPlans', f.denied.deleteInstallPlans],
  ] as const) {
    if (reason) blockers.push(`you may not ${what} in ${ns}: ${reason}`);
  }

  const steps: RefreshStep[] = [
    {
      action: 'delete',
      kind: 'Subscription',
      namespace: ns,
      name,
      why: 'first, so OLM does not plan again while the rest goes; it is made again, as it is, at the end',
    },
  ];
  steps.push(
    ...failedPlans.map(
      (p) =>
        ({
          action: 'delete',
          kind: 'InstallPlan',
          namespace: ns,
          name: p.metadata?.name ?? '',
          why: 'OLM never runs a failed plan again',
        }) as RefreshStep,
    ),
  );
  const images = new Set(
    failedPlans.flatMap((p) => (p.status?.bundleLookups ?? []).map((b) => b.path)).filter((x): x is string => !!x),
  );
  // A failed unpack leaves no plan: the bundle is the catalog entry the Subscription resolves to.
  const unpackFailed = (sub.status?.conditions ?? []).some(
    (c) => c.type === 'BundleUnpackFailed' && c.status === 'True',
  );
  if (unpackFailed) {
    if (typeof f.resolvedImages === 'string')
      notes.push(`the bundle that failed to unpack is not known (${f.resolvedImages}): its Job and ConfigMap stay`);
    else for (const i of f.resolvedImages ?? []) images.add(i);
  }
  const cannotList = [f.unpackJobs, f.unpackConfigMaps].find((x): x is string => typeof x === 'string');
  if (cannotList !== undefined) {
    if (images.size)
      notes.push(
        `the bundle unpack Jobs could not be listed (${cannotList}): delete the Job and ConfigMap of ${[...images].join(', ')} in ${sub.spec.sourceNamespace} by hand`,
      );
  } else {
    const configMaps = (f.unpackConfigMaps as UnpackConfigMap[] | undefined) ?? [];
    const cmDone = new Set<string>();
    for (const j of f.unpackJobs as UnpackJob[]) {
      const image = [...images].find((i) => madeToUnpack(j, i, configMaps, f.catalogUid));
      if (!image) continue;
      steps.push({
        action: 'delete',
        kind: 'Job',
        namespace: j.namespace,
        name: j.name,
        why: `it unpacked ${image}${j.failed ? ' and failed' : ''}; OLM would reuse it`,
      });
      const ref = unpackName(image);
      if (cmDone.has(ref)) continue;
      cmDone.add(ref);
      steps.push({
        action: 'delete',
        kind: 'ConfigMap',
        namespace: j.namespace,
        name: ref,
        why: 'the unpacked bundle the Job wrote',
      });
    }
  }
  if (f.csv)
    steps.push({
      action: 'delete',
      kind: 'ClusterServiceVersion',
      namespace: ns,
      name: f.csv.name,
      why: `${f.csv.phase ? `${f.csv.phase}; ` : ''}OLM refuses a new Subscription while its package's CSV stays; the CRDs and every instance stay`,
    });
  steps.push({
    action: 'create',
    kind: 'Subscription',
    namespace: ns,
    name,
    why: 'the same source, channel, approval, starting CSV and config: OLM resolves it afresh',
  });
  if (f.csv)
    notes.push(`the operator does not run from the moment ${f.csv.name} is deleted until OLM installs it again`);
  if (sub.spec.installPlanApproval === 'Manual')
    notes.push('the Subscription is Manual: its new InstallPlan waits for your approval');

  const subscription: Subscription = {
    apiVersion: `${SUBSCRIPTION_TYPE.group}/${SUBSCRIPTION_TYPE.version}`,
    kind: 'Subscription',
    metadata: {
      name,
      namespace: ns,
      ...(sub.metadata?.labels ? { labels: sub.metadata.labels } : {}),
      ...(sub.metadata?.annotations ? { annotations: sub.metadata.annotations } : {}),
    },
    spec: { ...sub.spec },
  };
  const retriedByOlm = failing.length > 0 && !failedPlans.length && stopped.every((c) => c.type === 'ResolutionFailed');
  return { failing, retriedByOlm, steps, subscription, blockers, notes };
}
