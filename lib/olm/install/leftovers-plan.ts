// The cleanup of the parts of a half-gone operator a person chose, in the order that lets each
// delete work (docs/olm/uninstall.md#suggested-order): instances first, while an operator that still runs
// can clear their finalizers; the Subscription before the CSV, so OLM does not act on it again;
// InstallPlans; finalizers only when chosen and only once their controller is gone (or goes in this
// plan); CRDs after their instances (the API server deletes what remains and holds the CRD while
// any instance has a finalizer); the OperatorGroup last, since OLM needs it to finish the CSV.
import type { ResourceType } from '../resources/common';
import { GC_FINALIZERS, type LeftoverPart, type Leftovers, type PartKind } from './leftovers';

export interface CleanupStep {
  /** The part it comes from. */
  part: string;
  action: 'delete' | 'remove-finalizers';
  kind: string;
  name: string;
  namespace?: string;
  /** For instances: their API (the server knows the OLM kinds). */
  api?: ResourceType;
  /** remove-finalizers: the ones removed (never the garbage collector's). */
  finalizers?: string[];
  why: string;
}

export interface CleanupPlan {
  /** The chosen parts with those they require. */
  chosen: string[];
  /** Parts added because a chosen one requires them, with the reason. */
  added: { part: string; because: string }[];
  steps: CleanupStep[];
  /** Why the plan cannot run: an unknown or refused part. Nothing runs while there is one. */
  blockers: string[];
  notes: string[];
}

const ORDER: readonly PartKind[] = [
  'Instances',
  'Subscription',
  'ClusterServiceVersion',
  'InstallPlan',
  'Finalizers',
  'CustomResourceDefinition',
  'OperatorGroup',
];

function instanceWhere(i: { namespace?: string; name: string }): string {
  return `${i.namespace ? `${i.namespace}/` : ''}${i.name}`;
}

function stepsOf(p: LeftoverPart): CleanupStep[] {
  switch (p.kind) {
    case 'Instances':
      return (p.instances?.items ?? [])
        .filter((i) => !i.deletionTimestamp)
        .map((i) => ({
          part: p.id,
          action: 'delete',
          kind: p.api!.kind,
          name: i.name,
          ...(i.namespace ? { namespace: i.namespace } : {}),
          api: p.api!,
          why: i.finalizers.length
            ? `its finalizer ${i.finalizers.join(', ')} holds it until removed`
            : "an instance of the operator's CRD",
        }));
    case 'Finalizers':
      return (p.instances?.items ?? []).map((i) => ({
        part: p.id,
        action: 'remove-finalizers',
        kind: p.api!.kind,
        name: i.name,
        ...(i.namespace ? { namespace: i.namespace } : {}),
        api: p.api!,
        finalizers: i.finalizers.filter((x) => !GC_FINALIZERS.includes(x)),
        why: 'being deleted, and the operator that would remove them is gone (or goes in this plan): nothing else will',
      }));
    case 'Subscription':
      return [
        {
          part: p.id,
          action: 'delete',
          kind: p.kind,
          name: p.name,
          namespace: p.namespace,
          why: 'first of the OLM objects, so OLM does not install or upgrade the operator again',
        },
      ];
    case 'ClusterServiceVersion':
      return [
        {
          part: p.id,
          action: 'delete',
          kind: p.kind,
          name: p.name,
          namespace: p.namespace,
          why: 'its Deployments, service accounts, roles and copies go with it; OLM clears its cluster RBAC',
        },
      ];
    case 'InstallPlan':
      return [
        {
          part: p.id,
          action: 'delete',
          kind: p.kind,
          name: p.name,
          namespace: p.namespace,
          why: 'it installs nothing any more',
        },
      ];
    case 'CustomResourceDefinition':
      return [
        {
          part: p.id,
          action: 'delete',
          kind: p.kind,
          name: p.name,
          why: 'after its instances; the API server removes any instance left and holds the CRD while one has a finalizer',
        },
      ];
    case 'OperatorGroup':
      return [
        {
          part: p.id,
          action: 'delete',
          kind: p.kind,
          name: p.name,
          namespace: p.namespace,
          why: "last: OLM reads it to finish a CSV's deletion",
        },
      ];
  }
}

export function planCleanup(left: Leftovers, choice: readonly string[]): CleanupPlan {
  const byId = new Map(left.parts.map((p) => [p.id, p]));
  const blockers: string[] = [];
  const added: CleanupPlan['added'] = [];
  const chosen = new Set<string>();
  const visit = (id: string, because?: string) => {
    if (chosen.has(id)) return;
    const p = byId.get(id);
    if (!p) {
      blockers.push(`${id.replace(':', ' ')} is not left (any more): read what is left again`);
      return;
    }
    chosen.add(id);
    if (because) added.push({ part: id, because });
    if (p.refused) blockers.push(`${p.kind} ${p.name} cannot be cleaned up: ${p.refused}`);
    for (const r of p.requires) visit(r, `${p.kind} ${p.name} needs it`);
  };
  for (const id of choice) visit(id);
  if (chosen.size === 0) blockers.push('choose at least one part to clean up');

  const parts = [...chosen]
    .map((id) => byId.get(id)!)
    .sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.name.localeCompare(b.name));
  const steps = parts.flatMap((p) => stepsOf(p));
  const notes: string[] = [];
  const subLeft = left.parts.filter((p) => p.kind === 'Subscription' && !chosen.has(p.id));
  if (subLeft.length && parts.some((p) => p.kind === 'ClusterServiceVersion'))
    notes.push(
      `Subscription ${subLeft.map((p) => p.name).join(', ')} stays: OLM does not install the CSV again while it names it, and it shows UpgradePending.`,
    );
  const heldCrds = parts.filter(
    (p) =>
      p.kind === 'CustomResourceDefinition' && byId.get(`Finalizers:${p.name}`) && !chosen.has(`Finalizers:${p.name}`),
  );
  for (const p of heldCrds)
    notes.push(`${p.name} stays Terminating until the finalizers on its instances are removed.`);
  const held = parts.filter(
    (p) => p.kind === 'Instances' && byId.get(`Finalizers:${p.name}`) && !chosen.has(`Finalizers:${p.name}`),
  );
  for (const p of held)
    notes.push(
      `Instances of ${p.name} with a finalizer stay until whoever owns it removes it: ${byId.get(`Finalizers:${p.name}`)!.instances!.items.map(instanceWhere).join(', ')}.`,
    );
  return { chosen: parts.map((p) => p.id), added, steps: blockers.length ? [] : steps, blockers, notes };
}
