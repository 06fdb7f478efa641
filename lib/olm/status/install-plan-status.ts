// An InstallPlan for the pages that show one: its phase in words, whether a person must approve
// it, and its steps grouped by kind (docs/olm/install-plans.md).
import type { InstallPlan, Step } from '../resources/install-plan';

export interface InstallPlanSummary {
  phase: string;
  label: string;
  needsApproval: boolean;
  approved: boolean;
  manual: boolean;
  csvNames: string[];
  /** The failure or retry message, when OLM gave one. */
  message?: string;
  done: boolean;
}

export function installPlanSummary(plan: InstallPlan): InstallPlanSummary {
  const phase = plan.status?.phase ?? '';
  const installed = plan.status?.conditions?.find((c) => c.type === 'Installed');
  const labels: Record<string, string> = {
    '': 'Being created',
    Planning: 'Planning',
    RequiresApproval: 'Requires approval',
    Installing: 'Installing',
    Complete: 'Complete',
    Failed: 'Failed',
  };
  return {
    phase,
    label: labels[phase] ?? phase,
    needsApproval: phase === 'RequiresApproval' && !plan.spec.approved,
    approved: plan.spec.approved,
    manual: plan.spec.approval === 'Manual',
    csvNames: plan.spec.clusterServiceVersionNames ?? [],
    message: plan.status?.message || (installed?.status === 'False' ? installed.message : undefined) || undefined,
    done: phase === 'Complete' || phase === 'Failed',
  };
}

export type StepGroupName = 'ClusterServiceVersion' | 'CustomResourceDefinition' | 'RBAC' | 'Subscription' | 'Other';

const rbacKinds = new Set(['ServiceAccount', 'Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding']);

export function stepGroupOf(kind: string): StepGroupName {
  if (kind === 'ClusterServiceVersion' || kind === 'CustomResourceDefinition' || kind === 'Subscription') return kind;
  return rbacKinds.has(kind) ? 'RBAC' : 'Other';
}

export interface StepGroup {
  group: StepGroupName;
  steps: Step[];
  /** Steps done (Created or Present) out of all. */
  done: number;
}

const GROUP_ORDER: readonly StepGroupName[] = [
  'ClusterServiceVersion',
  'CustomResourceDefinition',
  'RBAC',
  'Subscription',
  'Other',
];

export function groupSteps(plan: InstallPlan): StepGroup[] {
  const groups = new Map<StepGroupName, Step[]>();
  for (const s of plan.status?.plan ?? []) {
    const g = stepGroupOf(s.resource.kind);
    groups.set(g, [...(groups.get(g) ?? []), s]);
  }
  return GROUP_ORDER.filter((g) => groups.has(g)).map((g) => {
    const steps = groups.get(g)!;
    return { group: g, steps, done: steps.filter((s) => s.status === 'Created' || s.status === 'Present').length };
  });
}

export interface BundleReference {
  kind: 'ConfigMap';
  name: string;
  namespace: string;
  catalogSourceName?: string;
  catalogSourceNamespace?: string;
  replaces?: string;
}

export type StepManifest =
  | { form: 'object'; object: Record<string, unknown> }
  | { form: 'reference'; reference: BundleReference }
  | { form: 'missing' }
  | { form: 'invalid'; error: string };

/**
 * A step's manifest is either the object itself (inline JSON) or, for bundles OLM unpacked
 * from an image, a JSON reference to the ConfigMap holding it (docs/olm/install-plans.md#bundle-lookups).
 */
export function parseStepManifest(step: Step): StepManifest {
  const text = step.resource.manifest;
  if (!text) return { form: 'missing' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    return { form: 'invalid', error: err instanceof Error ? err.message : String(err) };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { form: 'invalid', error: 'the manifest is not a JSON object' };
  const o = parsed as Record<string, unknown>;
  if (o.kind === 'ConfigMap' && typeof o.name === 'string' && 'catalogSourceName' in o && !('apiVersion' in o)) {
    return {
      form: 'reference',
      reference: {
        kind: 'ConfigMap',
        name: o.name,
        namespace: String(o.namespace ?? ''),
        catalogSourceName: typeof o.catalogSourceName === 'string' ? o.catalogSourceName : undefined,
        catalogSourceNamespace: typeof o.catalogSourceNamespace === 'string' ? o.catalogSourceNamespace : undefined,
        replaces: typeof o.replaces === 'string' ? o.replaces : undefined,
      },
    };
  }
  return { form: 'object', object: o };
}
