// What an install wizard may offer for a package version, and the OperatorGroup each choice
// needs (docs/olm/install-modes.md#wizards): every supported mode, including the
// ones the OpenShift console does not offer (SingleNamespace into another namespace,
// MultiNamespace, AllNamespaces into a custom global namespace).
import type { InstallMode, InstallModeType } from '../resources/cluster-service-version';
import type { OperatorGroup } from '../resources/operator-group';
import { labelSelectorIsEmpty } from '../resources/label-selector';
import { supportsTargetNamespaces } from './supports';

const ORDER: readonly InstallModeType[] = ['AllNamespaces', 'OwnNamespace', 'SingleNamespace', 'MultiNamespace'];

/** The modes the version supports, in the order a wizard lists them. */
export function installModeChoices(installModes: readonly InstallMode[] | undefined): InstallModeType[] {
  const supported = new Set((installModes ?? []).filter((m) => m.supported).map((m) => m.type));
  return ORDER.filter((m) => supported.has(m));
}

/** The targets a choice means, from the install namespace and the namespaces picked. */
export function targetsFor(
  choice: InstallModeType,
  installNamespace: string,
  picked: readonly string[],
): { targets: string[] } | { error: string } {
  switch (choice) {
    case 'AllNamespaces':
      return { targets: [''] };
    case 'OwnNamespace':
      return { targets: [installNamespace] };
    case 'SingleNamespace': {
      const [only, ...rest] = picked;
      if (!only || rest.length > 0) return { error: 'SingleNamespace needs exactly one namespace to watch' };
      if (only === installNamespace)
        return {
          error: `watching the install namespace ${installNamespace} is OwnNamespace, not SingleNamespace; pick another namespace or choose OwnNamespace`,
        };
      return { targets: [only] };
    }
    case 'MultiNamespace': {
      const set = [...new Set(picked.filter(Boolean))].sort();
      if (set.length < 2) return { error: 'MultiNamespace needs at least two namespaces to watch' };
      return { targets: set };
    }
  }
}

/** The OperatorGroup a wizard creates for the choice: all namespaces has neither targets nor selector. */
export function operatorGroupFor(name: string, installNamespace: string, targets: readonly string[]): OperatorGroup {
  const all = targets.length === 1 && targets[0] === '';
  return {
    apiVersion: 'operators.coreos.com/v1',
    kind: 'OperatorGroup',
    metadata: { name, namespace: installNamespace },
    spec: all ? {} : { targetNamespaces: [...targets].sort() },
  };
}

/** The targets an existing group has, when they can be read from its spec alone. */
function specTargets(og: OperatorGroup): string[] | undefined {
  const t = og.spec?.targetNamespaces ?? [];
  if (t.length > 0) return [...new Set(t)].sort();
  if (labelSelectorIsEmpty(og.spec?.selector)) return [''];
  return og.status?.namespaces ? [...og.status.namespaces].sort() : undefined;
}

export type OperatorGroupPlan =
  | { action: 'create'; operatorGroup: OperatorGroup }
  | { action: 'reuse'; operatorGroup: OperatorGroup }
  | { action: 'conflict'; message: string };

/**
 * Reuse the namespace's OperatorGroup when it already targets exactly these namespaces, create
 * one when there is none, and otherwise explain why the install cannot go into this namespace:
 * OLM allows one group per namespace, and every operator in it shares that group's targets.
 */
export function planOperatorGroup(
  existing: readonly OperatorGroup[],
  installNamespace: string,
  targets: readonly string[],
  installModes: readonly InstallMode[],
  newName: string,
): OperatorGroupPlan {
  const verdict = supportsTargetNamespaces(installModes, installNamespace, targets);
  if (!verdict.ok) return { action: 'conflict', message: verdict.message };
  if (existing.length > 1) {
    const names = existing.map((o) => o.metadata?.name).join(', ');
    return {
      action: 'conflict',
      message: `namespace ${installNamespace} has ${existing.length} OperatorGroups (${names}); OLM fails every operator there with TooManyOperatorGroups until only one is left`,
    };
  }
  const og = existing[0];
  if (!og) return { action: 'create', operatorGroup: operatorGroupFor(newName, installNamespace, targets) };
  const have = specTargets(og);
  const want = [...targets].sort();
  if (have && have.length === want.length && have.every((n, i) => n === want[i]))
    return { action: 'reuse', operatorGroup: og };
  const describe = (t: readonly string[] | undefined) =>
    !t ? 'namespaces chosen by a label selector' : t[0] === '' ? 'all namespaces' : t.join(', ');
  return {
    action: 'conflict',
    message: `namespace ${installNamespace} already has OperatorGroup ${og.metadata?.name ?? ''}, which targets ${describe(have)}; this install needs ${describe(want)}. Install into another namespace, or change that group (which changes every operator in ${installNamespace})`,
  };
}

/** Namespaces whose only OperatorGroup targets all namespaces: where an AllNamespaces operator can go. */
export function globalNamespaces(groups: readonly OperatorGroup[]): string[] {
  const byNs = new Map<string, OperatorGroup[]>();
  for (const g of groups) {
    const ns = g.metadata?.namespace ?? '';
    byNs.set(ns, [...(byNs.get(ns) ?? []), g]);
  }
  return [...byNs]
    .filter(([, gs]) => gs.length === 1 && specTargets(gs[0]!)?.[0] === '' && specTargets(gs[0]!)?.length === 1)
    .map(([ns]) => ns)
    .sort();
}
