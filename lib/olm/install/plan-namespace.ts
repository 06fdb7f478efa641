// The Namespace step of an install plan: reuse the namespace, or create it with the labels and
// annotations of the operator's suggested namespace template when it is that namespace
// (docs/olm/install-modes.md), and say when the person may neither read nor create it.
import type { InstallFacts, PlanDraft } from './plan-types';
import type { OpenShiftPlanPart } from './openshift-plan';

export function planNamespace(f: InstallFacts, d: PlanDraft, os: OpenShiftPlanPart): void {
  const { objects, warnings, blockers } = d;
  const r = f.request;
  const template = f.version.suggestedNamespaceTemplate;
  // A namespace the person may not read but may not create either is taken to exist: creating
  // it could only fail, and if it is missing the OperatorGroup and Subscription writes say so.
  const assumeExists = f.namespaceExists === 'unknown' && !!f.denied.createNamespace;
  if (f.namespaceExists === true || assumeExists) {
    if (assumeExists)
      warnings.push({
        code: 'namespaceUnknown',
        message: `you may not read namespace ${r.namespace}; the plan assumes it exists`,
      });
    objects.push({
      action: 'reuse',
      kind: 'Namespace',
      name: r.namespace,
      object: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: r.namespace } },
    });
  } else {
    if (f.namespaceExists === 'unknown')
      warnings.push({
        code: 'namespaceUnknown',
        message: `you may not read namespace ${r.namespace}; the plan creates it, and uses it as it is if it exists`,
      });
    const fromTemplate = template?.name === r.namespace ? template : undefined;
    const labels = { ...(fromTemplate?.labels ?? {}), ...os.namespaceLabels };
    const metadata = {
      name: r.namespace,
      ...(Object.keys(labels).length ? { labels } : {}),
      ...(fromTemplate && Object.keys(fromTemplate.annotations).length
        ? { annotations: fromTemplate.annotations }
        : {}),
    };
    objects.push({
      action: 'create',
      kind: 'Namespace',
      name: r.namespace,
      object: { apiVersion: 'v1', kind: 'Namespace', metadata },
    });
    if (f.denied.createNamespace)
      blockers.push({
        code: 'forbidden',
        message: `namespace ${r.namespace} does not exist and you may not create it: ${f.denied.createNamespace}`,
      });
  }
  for (const o of os.afterNamespace) objects.push({ action: 'create', ...o });
  if (template && template.name !== r.namespace) {
    warnings.push({
      code: 'namespaceNotSuggested',
      message: `the operator suggests namespace ${template.name}${Object.keys(template.labels).length ? ', created with its labels' : ''}; installing into ${r.namespace} does not apply the template's labels and annotations`,
    });
  }
}
