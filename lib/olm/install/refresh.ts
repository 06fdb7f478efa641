// "Refresh a failing Subscription", the documented repair for a Subscription OLM no longer moves:
// a failed InstallPlan is never retried, and a failed bundle unpack leaves its Job and ConfigMap in
// the catalog's namespace, which OLM reuses. The repair deletes those, the Subscription and its CSV
// (OLM refuses a Subscription made again while its package's CSV stays unreferenced), then makes
// the Subscription again with the same channel, approval, starting CSV and config. The CRDs and
// every instance stay. The unpack Job is found as OLM makes it (controller/bundle/bundle_unpacker.go):
// labelled `operatorframework.io/bundle-unpack-ref` with its ConfigMap's name, pulling the bundle
// image in its `pull` init container.
import type { InstallPlan } from '../resources/install-plan';
import type { Subscription } from '../resources/subscription';
import { stoppedConditions, SUBSCRIPTION_TYPE } from '../resources/subscription';

export const BUNDLE_UNPACK_REF_LABEL = 'operatorframework.io/bundle-unpack-ref';

export interface UnpackJob {
  namespace: string;
  name: string;
  labels?: Record<string, string>;
  /** Every image of the Job's pod (containers and init containers). */
  images: string[];
  failed: boolean;
}

export interface RefreshFacts {
  subscription: Subscription;
  /** The namespace's InstallPlans. */
  plans: InstallPlan[];
  /** The CSV the Subscription names (installed or current), if it exists, with its phase. */
  csv?: { name: string; phase?: string };
  /** Bundle unpack Jobs in the catalog's namespace; a string says why they could not be listed. */
  unpackJobs: UnpackJob[] | string;
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
  steps: RefreshStep[];
  subscription: Subscription;
  blockers: string[];
  notes: string[];
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
  for (const c of stoppedConditions(sub.status?.conditions))
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
  if (typeof f.unpackJobs === 'string') {
    if (images.size)
      notes.push(
        `the bundle unpack Jobs could not be listed (${f.unpackJobs}): delete the Job and ConfigMap of ${[...images].join(', ')} in ${sub.spec.sourceNamespace} by hand`,
      );
  } else {
    for (const j of f.unpackJobs) {
      const ref = j.labels?.[BUNDLE_UNPACK_REF_LABEL];
      if (!ref || !j.images.some((i) => images.has(i))) continue;
      steps.push({
        action: 'delete',
        kind: 'Job',
        namespace: j.namespace,
        name: j.name,
        why: `it unpacked ${j.images.find((i) => images.has(i))}${j.failed ? ' and failed' : ''}; OLM would reuse it`,
      });
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
  return { failing, steps, subscription, blockers, notes };
}
