// metav1.LabelSelector matching (matchLabels AND matchExpressions), as OperatorGroups and
// Subscriptions' selectors use it. An empty selector matches everything; nil is the caller's
// decision (OLM reads a nil OperatorGroup selector as "all namespaces").
import type { LabelSelector } from './common';

export function labelSelectorIsEmpty(sel: LabelSelector | undefined | null): boolean {
  return !sel || (Object.keys(sel.matchLabels ?? {}).length === 0 && (sel.matchExpressions ?? []).length === 0);
}

export function matchesLabelSelector(
  sel: LabelSelector,
  labels: Readonly<Record<string, string>> | undefined,
): boolean {
  const l = labels ?? {};
  for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (l[k] !== v) return false;
  for (const req of sel.matchExpressions ?? []) {
    const has = Object.prototype.hasOwnProperty.call(l, req.key);
    const values = req.values ?? [];
    switch (req.operator) {
      case 'In':
        if (!has || !values.includes(l[req.key]!)) return false;
        break;
      case 'NotIn':
        if (has && values.includes(l[req.key]!)) return false;
        break;
      case 'Exists':
        if (!has) return false;
        break;
      case 'DoesNotExist':
        if (has) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}
