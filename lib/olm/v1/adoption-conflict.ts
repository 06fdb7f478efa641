// What the move does when operator-controller refuses an object it was meant to adopt. Helm adopts
// an existing object only while it carries Helm's three marks (Helm v3.17 validate.go); without
// them operator-controller v1.2.0 rewrites Helm's install error to "<Kind> '<name>' already exists
// in namespace '<ns>' and cannot be managed by operator-controller" (action/error/errors.go,
// namespace '' for a cluster-scoped object) and retries. OLM v0.38.0 can take the marks off after
// the move wrote them: a re-executed InstallPlan step replaces a ServiceAccount's labels with the
// step's own (catalog/step_ensurer.go EnsureServiceAccount keeps annotations, not labels), so
// Helm's managed-by label goes (docs/olm-v1/migration.md#adoption). The move may then mark the
// object again, but only the very object it listed (its uid), never one that merely has the name
// a catalog chose, and not once OLM v0 owns it again. Pure.
import type { LiveObject } from './v0-ownership';

export interface AdoptionConflict {
  kind: string;
  name: string;
  /** '' for a cluster-scoped object, as operator-controller writes it. */
  namespace: string;
}

const CONFLICT = /(\w+) '([^']+)' already exists in namespace '([^']*)' and cannot be managed by operator-controller/;

/** The object operator-controller says it cannot manage, from a condition message, or undefined. */
export function adoptionConflict(message: string | undefined): AdoptionConflict | undefined {
  const m = message ? CONFLICT.exec(message) : null;
  return m ? { kind: m[1]!, name: m[2]!, namespace: m[3]! } : undefined;
}

/**
 * Why the object, already found to be the very one the move listed and no shared role
 * (v0-ownership.ts recheckRefusal), may still not be marked again: OLM v0 owns it again (an
 * InstallPlan made its CSV anew and re-ensured the object for it).
 */
export function remarkRefusal(live: LiveObject): string | undefined {
  const v0 = live.ownerReferences?.find((r) => r.kind === 'ClusterServiceVersion');
  if (!v0) return undefined;
  const what = `${live.kind} ${live.namespace ? `${live.namespace}/` : ''}${live.name}`;
  return `${what} lost the marks for OLM v1 and is owned by ClusterServiceVersion ${v0.name} again`;
}
