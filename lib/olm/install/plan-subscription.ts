// The Subscription step of an install plan: the approval it gets (a non-head version and
// OpenShift's token auth force Manual), what one plan per namespace means for the other
// subscriptions there (docs/olm/install-plans.md#one-plan-per-namespace), and whether the same
// Subscription exists already.
import { SUBSCRIPTION_TYPE, type Approval, type Subscription } from '../resources/subscription';
import { sameConfig } from '../resources/subscription-config';
import type { OpenShiftPlanPart } from './openshift-plan';
import type { InstallFacts, PlanDraft } from './plan-types';

export interface PlannedSubscription {
  approval: Approval;
  startingCSV?: string;
  /** The same Subscription already exists: applying again changes nothing. */
  alreadyInstalled: boolean;
}

export function planSubscription(f: InstallFacts, d: PlanDraft, os: OpenShiftPlanPart): PlannedSubscription {
  const { objects, warnings, blockers } = d;
  const r = f.request;
  const nonHead = !f.version.isHead;
  const approval: Approval = nonHead || os.forceManual ? 'Manual' : r.approval;
  if (os.forceManual && !nonHead && r.approval === 'Automatic') {
    warnings.push({
      code: 'tokenAuthForcesManual',
      message: `${os.view?.tokenAuth.reason}: the Subscription is made with Manual approval, as OpenShift's console makes it, so each upgrade waits until someone has checked the cloud role still grants what the new version needs`,
    });
  }
  if (nonHead && r.approval === 'Automatic') {
    warnings.push({
      code: 'nonHeadForcesManual',
      message: `${f.version.csvName} is not the head of channel ${r.channel}${f.version.headCsvName ? ` (${f.version.headCsvName} is)` : ''}: with Automatic approval OLM would upgrade it at once, so the Subscription is made with Manual approval`,
    });
  }
  const others = f.subscriptions.filter((s) => s.spec.name !== r.package);
  const manualOthers = others.filter((s) => s.spec.installPlanApproval === 'Manual');
  if (approval === 'Automatic' && manualOthers.length > 0) {
    warnings.push({
      code: 'sharedApprovalManual',
      message: `namespace ${r.namespace} has Manual subscriptions (${manualOthers.map((s) => s.metadata?.name).join(', ')}); OLM makes one InstallPlan per namespace, so this operator's installs and upgrades will wait for approval too`,
    });
  }
  if (approval === 'Manual' && others.length > manualOthers.length) {
    const auto = others.filter((s) => s.spec.installPlanApproval !== 'Manual');
    warnings.push({
      code: 'manualAffectsOthers',
      message: `namespace ${r.namespace} has Automatic subscriptions (${auto.map((s) => s.metadata?.name).join(', ')}); with this Manual one, any InstallPlan that touches them together waits for approval`,
    });
  }
  const subscription: Subscription = {
    apiVersion: `${SUBSCRIPTION_TYPE.group}/${SUBSCRIPTION_TYPE.version}`,
    kind: 'Subscription',
    metadata: { name: r.package, namespace: r.namespace },
    spec: {
      name: r.package,
      source: r.catalog.name,
      sourceNamespace: r.catalog.namespace,
      channel: r.channel,
      installPlanApproval: approval,
      ...(nonHead ? { startingCSV: f.version.csvName } : {}),
      ...(os.config ? { config: os.config as Record<string, unknown> } : {}),
    },
  };
  const same = f.subscriptions.find((s) => s.spec.name === r.package);
  let alreadyInstalled = false;
  if (same) {
    const matches =
      same.spec.source === r.catalog.name &&
      same.spec.sourceNamespace === r.catalog.namespace &&
      (same.spec.channel ?? '') === r.channel &&
      (same.spec.installPlanApproval ?? 'Automatic') === approval &&
      (same.spec.startingCSV ?? undefined) === subscription.spec.startingCSV &&
      sameConfig(same.spec.config, subscription.spec.config);
    if (matches) {
      alreadyInstalled = true;
      objects.push({
        action: 'reuse',
        kind: 'Subscription',
        name: same.metadata?.name ?? r.package,
        namespace: r.namespace,
        object: same as unknown as Record<string, unknown>,
      });
    } else {
      blockers.push({
        code: 'alreadyInstalledHere',
        message: `${r.package} is already subscribed in ${r.namespace} (Subscription ${same.metadata?.name}, channel ${same.spec.channel ?? 'default'}, ${same.spec.installPlanApproval ?? 'Automatic'} approval, from ${same.spec.sourceNamespace}/${same.spec.source}${sameConfig(same.spec.config, subscription.spec.config) ? '' : ', with another pod configuration'}); change that subscription, or uninstall it first`,
      });
    }
  } else {
    const taken = f.subscriptions.find((s) => s.metadata?.name === r.package);
    if (taken)
      blockers.push({
        code: 'subscriptionNameTaken',
        message: `namespace ${r.namespace} already has a Subscription named ${r.package}, for package ${taken.spec.name}`,
      });
    objects.push({
      action: 'create',
      kind: 'Subscription',
      name: r.package,
      namespace: r.namespace,
      object: subscription as unknown as Record<string, unknown>,
    });
    if (f.denied.createSubscription)
      blockers.push({
        code: 'forbidden',
        message: `you may not create Subscriptions in ${r.namespace}: ${f.denied.createSubscription}`,
      });
  }

  return { approval, startingCSV: subscription.spec.startingCSV, alreadyInstalled };
}
