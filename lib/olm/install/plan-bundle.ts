// The bundle an InstallPlan installs for one CSV, read back from its steps
// (docs/olm/install-plans.md#the-bundle-in-a-plan). OLM writes a bundle's steps in one of two
// forms: the objects themselves (a bundle the registry served inline), or, for a bundle it
// unpacked from its image, a JSON reference to the unpack ConfigMap in place of every manifest
// (catalog operator.go unpackBundles). Beside the bundle's own objects a plan carries what OLM
// derives from the CSV's permissions (resolver rbac.go RBACForClusterServiceVersion): Roles,
// ClusterRoles and their bindings labelled as the CSV's (`olm.owner`, `olm.owner.kind`) and with
// `olm.permissions.hash`, and the ServiceAccounts, owned by the CSV. Those are the CSV's rules
// again, not the bundle's, so they are left out here. Either label marks a role as derived: the
// sandbox writes the owner labels without the hash.
import type { BundleObject } from '../bundle/registry-v1-files';
import type { InstallPlan, Step } from '../resources/install-plan';
import { parseStepManifest, type BundleReference } from '../status/install-plan-status';

export const PERMISSIONS_HASH_LABEL = 'olm.permissions.hash';

export type PlanBundle =
  | { form: 'objects'; csv: BundleObject; others: BundleObject[] }
  | { form: 'reference'; reference: BundleReference }
  | { form: 'unreadable'; why: string };

const RBAC_KINDS = new Set(['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding']);

function labels(o: BundleObject): Record<string, unknown> {
  const l = o.metadata.labels;
  return typeof l === 'object' && l !== null ? (l as Record<string, unknown>) : {};
}

/** Whether OLM made this step's object from the CSV's permissions rather than took it from the bundle. */
function derivedFromCsv(o: BundleObject, csv: string): boolean {
  if (RBAC_KINDS.has(o.kind)) {
    const l = labels(o);
    return PERMISSIONS_HASH_LABEL in l || (l['olm.owner.kind'] === 'ClusterServiceVersion' && l['olm.owner'] === csv);
  }
  if (o.kind !== 'ServiceAccount') return false;
  const owners = Array.isArray(o.metadata.ownerReferences) ? (o.metadata.ownerReferences as unknown[]) : [];
  return owners.some(
    (r) => typeof r === 'object' && r !== null && (r as { kind?: unknown }).kind === 'ClusterServiceVersion',
  );
}

const isObject = (o: Record<string, unknown>): o is BundleObject =>
  typeof o.kind === 'string' && typeof o.apiVersion === 'string';

/** The steps the plan holds for `csv`, as the bundle they came from, or why they cannot be read as one. */
export function planBundle(plan: InstallPlan, csv: string): PlanBundle {
  const steps: Step[] = (plan.status?.plan ?? []).filter(
    (s) => s.resolving === csv && s.resource.kind !== 'Subscription',
  );
  if (!steps.length) return { form: 'unreadable', why: `the plan has no steps for ${csv} yet` };
  const objects: BundleObject[] = [];
  for (const s of steps) {
    const m = parseStepManifest(s);
    // OLM replaces every step of an unpacked bundle with the same reference: the first one names it.
    if (m.form === 'reference') return { form: 'reference', reference: m.reference };
    if (m.form === 'missing')
      return { form: 'unreadable', why: `step ${s.resource.kind} ${s.resource.name} has no manifest` };
    if (m.form === 'invalid')
      return {
        form: 'unreadable',
        why: `the manifest of step ${s.resource.kind} ${s.resource.name} is not JSON: ${m.error}`,
      };
    // OLM marshals the objects it derives from typed Go values without their type (the ServiceAccount
    // of RBACForClusterServiceVersion has no apiVersion or kind): the step's resource names them.
    const r = s.resource;
    if (typeof m.object.kind !== 'string' && r.kind) m.object.kind = r.kind;
    if (typeof m.object.apiVersion !== 'string' && r.version)
      m.object.apiVersion = r.group ? `${r.group}/${r.version}` : r.version;
    if (!isObject(m.object))
      return {
        form: 'unreadable',
        why: `the manifest of step ${s.resource.kind} ${s.resource.name} has no apiVersion and kind`,
      };
    const metadata = typeof m.object.metadata === 'object' && m.object.metadata !== null ? m.object.metadata : {};
    objects.push({ ...m.object, metadata } as BundleObject);
  }
  const found = objects.find((o) => o.kind === 'ClusterServiceVersion' && o.metadata.name === csv);
  if (!found) return { form: 'unreadable', why: `the plan's steps for ${csv} hold no ClusterServiceVersion` };
  return {
    form: 'objects',
    csv: found,
    others: objects.filter((o) => o.kind !== 'ClusterServiceVersion' && !derivedFromCsv(o, csv)),
  };
}
