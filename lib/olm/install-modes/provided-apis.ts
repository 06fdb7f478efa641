// `olm.providedAPIs` and the rule that two OperatorGroups whose targets overlap may not both
// provide the same API (docs/olm/operator-groups.md#provided-apis).
import { isAllNamespaces } from './operator-group-targets';

export interface ApiKey {
  group: string;
  version: string;
  kind: string;
}

export function formatApi(a: ApiKey): string {
  return `${a.kind}.${a.version}.${a.group}`;
}

/** Comma-joined, sorted `Kind.version.group`, as OLM writes the annotation. */
export function formatProvidedAPIs(apis: Iterable<string>): string {
  return [...new Set(apis)].filter(Boolean).sort().join(',');
}

export function parseProvidedAPIs(annotation: string | undefined): Set<string> {
  return new Set(
    (annotation ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** The namespaces a group covers: its targets plus its own namespace (unless it targets all). */
export function groupSurface(ogNamespace: string, targets: readonly string[]): Set<string> {
  if (isAllNamespaces(targets)) return new Set(['']);
  return new Set([...targets, ogNamespace]);
}

/** Two groups intersect when their surfaces overlap; all-namespaces overlaps any non-empty set. */
export function operatorGroupsIntersect(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return false;
  if (a.has('') || b.has('')) return true;
  for (const n of a) if (b.has(n)) return true;
  return false;
}

export type ProvidedApiOutcome =
  | { action: 'proceed' }
  | { action: 'add'; annotation: string }
  | { action: 'remove'; annotation: string }
  | {
      action: 'fail';
      reason: 'InterOperatorGroupOwnerConflict' | 'CannotModifyStaticOperatorGroupProvidedAPIs';
      message: string;
    };

/**
 * The table of docs/olm/operator-groups.md#provided-apis: given the CSV's provided APIs, its group's annotation, the union of the
 * annotations of intersecting groups, and whether the group is static.
 */
export function providedApiOutcome(
  csvApis: ReadonlySet<string>,
  own: ReadonlySet<string>,
  others: ReadonlySet<string>,
  staticProvidedAPIs = false,
): ProvidedApiOutcome {
  const intersects = [...csvApis].some((a) => others.has(a));
  const contained = [...csvApis].every((a) => own.has(a));
  const staticFail = (): ProvidedApiOutcome => ({
    action: 'fail',
    reason: 'CannotModifyStaticOperatorGroupProvidedAPIs',
    message: 'static provided apis annotation cannot be modified',
  });
  if (intersects && contained) {
    if (staticProvidedAPIs) return staticFail();
    return { action: 'remove', annotation: formatProvidedAPIs([...own].filter((a) => !csvApis.has(a))) };
  }
  if (intersects)
    return {
      action: 'fail',
      reason: 'InterOperatorGroupOwnerConflict',
      message: 'intersecting operatorgroups provide the same apis',
    };
  if (!contained) {
    if (staticProvidedAPIs) return staticFail();
    return { action: 'add', annotation: formatProvidedAPIs([...own, ...csvApis]) };
  }
  return { action: 'proceed' };
}
