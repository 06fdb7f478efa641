// The namespaces an OperatorGroup selects (`status.namespaces`), as OLM computes them (docs/olm/operator-groups.md#target-namespaces).
import type { OperatorGroup } from '../resources/operator-group';
import { labelSelectorIsEmpty, matchesLabelSelector } from '../resources/label-selector';

export interface NamespaceFacts {
  name: string;
  labels?: Record<string, string>;
}

export type TargetsResult = { namespaces: string[] } | { error: string };

/** `['']` means all namespaces; an empty list means the selector matched nothing. */
export function operatorGroupTargets(og: OperatorGroup, namespaces: readonly NamespaceFacts[]): TargetsResult {
  const explicit = og.spec?.targetNamespaces ?? [];
  if (explicit.length > 0) {
    if (explicit.includes(''))
      return {
        error:
          'targetNamespaces must not contain "" (all namespaces is an OperatorGroup without targetNamespaces and selector)',
      };
    return { namespaces: [...new Set(explicit)].sort() };
  }
  const sel = og.spec?.selector;
  if (labelSelectorIsEmpty(sel)) return { namespaces: [''] };
  return {
    namespaces: namespaces
      .filter((n) => matchesLabelSelector(sel!, n.labels))
      .map((n) => n.name)
      .sort(),
  };
}

/** The value of a CSV's `olm.targetNamespaces` annotation for these targets (sorted, comma-joined). */
export function targetNamespacesAnnotation(targets: readonly string[]): string {
  return [...targets].sort().join(',');
}

export function isAllNamespaces(targets: readonly string[] | undefined): boolean {
  return targets !== undefined && targets.length === 1 && targets[0] === '';
}
