// What an install will do, decided before anything is written: the Namespace, OperatorGroup and
// Subscription it creates or reuses, every warning about what OLM will do with them, and what
// blocks it. Pure: the server gathers the cluster's facts as the person, this decides.
// OLM's rules it applies: one OperatorGroup per namespace and its targets shared by every
// operator there (docs/olm/operator-groups.md, docs/olm/install-modes.md), one InstallPlan per
// namespace, so one Manual subscription makes every upgrade in the namespace wait
// (docs/olm/install-plans.md#one-plan-per-namespace), and Automatic approval moving a non-head
// install to the head at once (docs/olm/upgrade-graphs.md#update-paths).
// The steps, in the order their objects are applied: plan-namespace.ts, plan-operator-group.ts,
// plan-subscription.ts, then plan-warnings.ts; the shapes are in plan-types.ts.
import { targetsFor } from '../install-modes/wizard';
import { planOpenShiftOptions } from './openshift-plan';
import { planNamespace } from './plan-namespace';
import { planOperatorGroup } from './plan-operator-group';
import { planSubscription } from './plan-subscription';
import type { InstallFacts, InstallPlanResult, PlanDraft } from './plan-types';
import { planWarnings } from './plan-warnings';

export * from './plan-types';

export function planInstall(f: InstallFacts): InstallPlanResult {
  const r = f.request;
  const d: PlanDraft = { objects: [], warnings: [], blockers: [] };
  const { objects, warnings, blockers } = d;

  const picked = targetsFor(r.installMode, r.namespace, r.targetNamespaces ?? []);
  const targets = 'targets' in picked ? picked.targets : [];
  if ('error' in picked) blockers.push({ code: 'unsupportedInstallMode', message: picked.error });
  else if (!f.version.installModes.some((m) => m.type === r.installMode && m.supported)) {
    const supported = f.version.installModes.filter((m) => m.supported).map((m) => m.type);
    blockers.push({
      code: 'unsupportedInstallMode',
      message: `${f.version.csvName} does not support ${r.installMode}; it supports ${supported.join(', ') || 'no install mode'}`,
    });
  }

  // OpenShift's options change the Namespace, add objects after it and shape the Subscription.
  const os = planOpenShiftOptions({
    choices: r.openshift ?? {},
    cluster: f.openshiftCluster,
    csv: f.version.openshiftOptions ?? { tokenAuth: [], plugins: [], clusterMonitoring: false },
    csvKnown: !!f.version.openshiftOptions,
    catalogName: r.catalog.name,
    namespace: r.namespace,
    createsNamespace: f.namespaceExists === false,
    config: r.config,
    monitoringRbacDenied: f.denied.monitoringRbac,
  });
  blockers.push(...os.blockers);
  planNamespace(f, d, os);
  const scoped = planOperatorGroup(f, d, targets);
  const { approval, startingCSV, alreadyInstalled } = planSubscription(f, d, os);
  planWarnings(f, d, targets);

  // Last: nothing after it can fail and leave the Console changed for an operator not installed.
  if (os.consolePlugins) {
    const { before, after } = os.consolePlugins;
    objects.push({
      action: 'patch',
      kind: 'Console',
      name: 'cluster',
      adds: after.filter((p) => !before.includes(p)),
      change: `spec.plugins: ${before.length ? before.join(', ') : '(none)'} → ${after.join(', ')}`,
      object: {
        apiVersion: 'operator.openshift.io/v1',
        kind: 'Console',
        metadata: { name: 'cluster' },
        spec: { plugins: after },
      },
    });
  }
  warnings.push(...os.warnings);
  return {
    objects,
    approval,
    startingCSV,
    targets,
    warnings,
    blockers,
    alreadyInstalled,
    ...(scoped ? { scoped } : {}),
    ...(os.view ? { openshift: os.view } : {}),
  };
}
