// Disabling a catalog where OLM has no switch for it (upstream OLM, or a source OpenShift's
// marketplace operator does not manage): OLM offers a catalog's packages for exactly as long as
// its CatalogSource exists, so disabling deletes it, and the console keeps the definition in a
// ConfigMap of the same namespace — one key per catalog — to make it again as it was on Enable.
// The record is plain data anyone can read with kubectl, and a GitOps tool can own it.
import { cleanObject } from '../install/gitops-export';
import type { CatalogSource } from '../resources/catalog-source';

export const DISABLED_CATALOGS_CONFIGMAP = 'olm-console-disabled-catalogs';

export interface DisabledCatalog {
  namespace: string;
  name: string;
  disabledAt: string;
  /** Who disabled it, as the API server named them (SelfSubjectReview), when known. */
  disabledBy?: string;
  /** The CatalogSource as it will be made again: identity, labels, annotations, spec. */
  catalogSource: CatalogSource;
}

/** The ConfigMap entry (key, value) that records a catalog being disabled. */
export function recordOf(cs: CatalogSource, disabledAt: string, disabledBy?: string): { key: string; value: string } {
  const catalogSource = cleanObject(cs as never, {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
  }) as unknown as CatalogSource;
  return {
    key: cs.metadata?.name ?? '',
    value: JSON.stringify({ disabledAt, ...(disabledBy ? { disabledBy } : {}), catalogSource }, null, 2),
  };
}

/**
 * The disabled catalogs a ConfigMap records, and the entries it cannot read (edited by hand into
 * something else): those are reported, never guessed at.
 */
export function readRecords(
  namespace: string,
  data: Record<string, string> | undefined,
): { catalogs: DisabledCatalog[]; problems: string[] } {
  const catalogs: DisabledCatalog[] = [];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(data ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    let parsed: { disabledAt?: unknown; disabledBy?: unknown; catalogSource?: CatalogSource };
    try {
      parsed = JSON.parse(value) as typeof parsed;
    } catch {
      problems.push(`entry ${key} of ConfigMap ${namespace}/${DISABLED_CATALOGS_CONFIGMAP} is not JSON`);
      continue;
    }
    const cs = parsed.catalogSource;
    if (
      !cs ||
      cs.kind !== 'CatalogSource' ||
      cs.metadata?.name !== key ||
      typeof cs.spec !== 'object' ||
      typeof parsed.disabledAt !== 'string'
    ) {
      problems.push(
        `entry ${key} of ConfigMap ${namespace}/${DISABLED_CATALOGS_CONFIGMAP} is not a disabled CatalogSource named ${key}`,
      );
      continue;
    }
    catalogs.push({
      namespace,
      name: key,
      disabledAt: parsed.disabledAt,
      ...(typeof parsed.disabledBy === 'string' ? { disabledBy: parsed.disabledBy } : {}),
      catalogSource: { ...cs, metadata: { ...cs.metadata, namespace } },
    });
  }
  return { catalogs, problems };
}
