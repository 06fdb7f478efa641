// Disabling a catalog where OLM has no switch for it (upstream OLM, or a source OpenShift's
// marketplace operator does not manage): OLM offers a catalog's packages for exactly as long as
// its CatalogSource exists, so disabling deletes it, and the console keeps the definition in a
// ConfigMap of the same namespace — one key per catalog — to make it again as it was on Enable.
// The record is plain data anyone can read with kubectl. Whoever may write ConfigMaps there may
// also write a record, though, and Enable makes a CatalogSource in a global namespace from it: so
// the console seals what it records (lib/server/disabled-catalog-seal.ts), over the one spelling
// `sealedContent` gives, and Enable acts on no record without its seal.
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

/** A record as read back, with the seal it carries (if any), which only the server can check. */
export interface RecordedCatalog extends DisabledCatalog {
  seal?: string;
}

/** Objects with their keys in order, all the way down: one spelling of the same content. */
function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(o)
      .sort()
      .map((k) => [k, canonical(o[k])]),
  );
}

/**
 * What a seal covers: where the record is, who disabled the catalog when, and the CatalogSource
 * Enable would make, in an order that does not depend on how the ConfigMap's JSON was spelt.
 */
export function sealedContent(c: DisabledCatalog): string {
  return JSON.stringify(
    canonical({
      namespace: c.namespace,
      name: c.name,
      disabledAt: c.disabledAt,
      disabledBy: c.disabledBy ?? null,
      catalogSource: c.catalogSource,
    }),
  );
}

/**
 * The ConfigMap entry (key, value) that records a catalog being disabled; `seal` is given the
 * record as it will be read back (readRecords) and answers the seal to store with it.
 */
export function recordOf(
  cs: CatalogSource,
  disabledAt: string,
  disabledBy?: string,
  seal?: (c: DisabledCatalog) => string,
): { key: string; value: string } {
  const name = cs.metadata?.name ?? '';
  const namespace = cs.metadata?.namespace ?? '';
  const cleaned = cleanObject(cs as never, {
    apiVersion: 'operators.coreos.com/v1alpha1',
    kind: 'CatalogSource',
  }) as unknown as CatalogSource;
  const catalogSource = { ...cleaned, metadata: { ...cleaned.metadata, namespace } };
  const record: DisabledCatalog = { namespace, name, disabledAt, ...(disabledBy ? { disabledBy } : {}), catalogSource };
  const sealed = seal?.(record);
  return {
    key: name,
    value: JSON.stringify(
      { disabledAt, ...(disabledBy ? { disabledBy } : {}), catalogSource, ...(sealed ? { seal: sealed } : {}) },
      null,
      2,
    ),
  };
}

/**
 * The disabled catalogs a ConfigMap records, and the entries it cannot read (edited by hand into
 * something else): those are reported, never guessed at.
 */
export function readRecords(
  namespace: string,
  data: Record<string, string> | undefined,
): { catalogs: RecordedCatalog[]; problems: string[] } {
  const catalogs: RecordedCatalog[] = [];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(data ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    let parsed: { disabledAt?: unknown; disabledBy?: unknown; catalogSource?: CatalogSource; seal?: unknown };
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
      ...(typeof parsed.seal === 'string' ? { seal: parsed.seal } : {}),
    });
  }
  return { catalogs, problems };
}
