// What switching OLMConfig `spec.features.disableCopiedCSVs` does to the cluster's Copied CSVs,
// counted before anyone switches it (docs/olm/olm-config.md#disabling-copied-csvs; OLM's operator.go
// syncCopyCSV and syncOLMConfig):
//
// - It applies only to operators whose OperatorGroup targets all namespaces. Turned on, OLM
//   deletes their copies (and records a Warning event `DisabledCopiedCSVs` on each such CSV);
//   operators watching a list of namespaces keep theirs.
// - Turned off, OLM copies every such operator into every other namespace again (and deletes
//   those events).
// - Either way the operators keep watching every namespace: only the copies (what lets people
//   in other namespaces see the operator) go or come back.
import { isCopiedCsv, watchesAllNamespaces, type ClusterServiceVersion } from './cluster-service-version';
import { Keys } from './common';

/** CSV reasons for which OLM keeps no copies (the OperatorGroup problems, docs/olm/copied-csvs.md#when-and-where). */
const NOT_COPIED = new Set([
  'NoOperatorGroup',
  'TooManyOperatorGroups',
  'UnsupportedOperatorGroup',
  'NoTargetNamespaces',
  'InvalidInstallModes',
  'InterOperatorGroupOwnerConflict',
  'CannotModifyStaticOperatorGroupProvidedAPIs',
]);

export interface CopiedCsvRef {
  namespace: string;
  name: string;
  /** The namespace of the operator it was copied from (`olm.copiedFrom`). */
  copiedFrom: string;
}

export interface AllNamespacesOperator {
  namespace: string;
  name: string;
  /** Its copies in the cluster now. */
  copies: number;
}

export interface CopiedCsvEffect {
  /** The value the switch would set. */
  disableCopiedCSVs: boolean;
  /** Copied CSVs in the cluster now, and how many belong to operators installed for all namespaces. */
  present: number;
  ofAllNamespacesOperators: number;
  /** Copies of operators that watch a list of namespaces: OLMConfig leaves them alone. */
  unaffected: number;
  operators: AllNamespacesOperator[];
  /** Turning copies off: how many go. */
  removes?: number;
  /** Turning copies on: how many come back (undefined when the number of namespaces is unknown). */
  restores?: number;
  namespaceCount?: number;
  /** The effect in one sentence. */
  summary: string;
}

/** A copy's reference from a CSV the API listed (copies carry `olm.copiedFrom`). */
export function copiedCsvRef(csv: ClusterServiceVersion): CopiedCsvRef | undefined {
  if (!isCopiedCsv(csv)) return undefined;
  const from = csv.metadata?.labels?.[Keys.copiedFrom] ?? csv.metadata?.annotations?.[Keys.operatorNamespace];
  return from
    ? { namespace: csv.metadata?.namespace ?? '', name: csv.metadata?.name ?? '', copiedFrom: from }
    : undefined;
}

/** The operators (their own CSVs, not copies) whose copies OLMConfig governs. */
export function allNamespacesOperators(csvs: readonly ClusterServiceVersion[]): ClusterServiceVersion[] {
  return csvs.filter(
    (c) =>
      !isCopiedCsv(c) &&
      !c.metadata?.deletionTimestamp &&
      watchesAllNamespaces(c) &&
      !NOT_COPIED.has(c.status?.reason ?? ''),
  );
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The effect of setting disableCopiedCSVs to `to`, from the operators' own CSVs, the copies
 * present and the number of namespaces (when the person may count them).
 */
export function copiedCsvEffect(input: {
  to: boolean;
  operators: readonly ClusterServiceVersion[];
  copies: readonly CopiedCsvRef[];
  namespaceCount?: number;
}): CopiedCsvEffect {
  const global = allNamespacesOperators(input.operators);
  const key = (ns: string, name: string) => `${ns}/${name}`;
  const globalKeys = new Set(global.map((c) => key(c.metadata?.namespace ?? '', c.metadata?.name ?? '')));
  const perOperator = new Map<string, number>();
  let ofGlobal = 0;
  for (const c of input.copies) {
    const k = key(c.copiedFrom, c.name);
    if (!globalKeys.has(k)) continue;
    ofGlobal += 1;
    perOperator.set(k, (perOperator.get(k) ?? 0) + 1);
  }
  const operators = global
    .map((c) => ({
      namespace: c.metadata?.namespace ?? '',
      name: c.metadata?.name ?? '',
      copies: perOperator.get(key(c.metadata?.namespace ?? '', c.metadata?.name ?? '')) ?? 0,
    }))
    .sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name));
  const base = {
    disableCopiedCSVs: input.to,
    present: input.copies.length,
    ofAllNamespacesOperators: ofGlobal,
    unaffected: input.copies.length - ofGlobal,
    operators,
    ...(input.namespaceCount !== undefined ? { namespaceCount: input.namespaceCount } : {}),
  };
  const kept = base.unaffected
    ? ` The ${plural(base.unaffected, 'copy', 'copies')} of operators watching chosen namespaces stay.`
    : '';
  if (input.to) {
    const summary =
      ofGlobal === 0
        ? `No copied CSV goes: no operator installed for all namespaces has copies now.${kept}`
        : `OLM deletes ${plural(ofGlobal, 'copied CSV')} of ${plural(operators.filter((o) => o.copies > 0).length, 'operator')} installed for all namespaces; the operators keep watching every namespace, but people in other namespaces no longer see them listed there.${kept}`;
    return { ...base, removes: ofGlobal, summary };
  }
  if (operators.length === 0)
    return { ...base, restores: 0, summary: 'No copied CSV comes back: no operator is installed for all namespaces.' };
  if (input.namespaceCount === undefined) {
    return {
      ...base,
      summary: `OLM copies each of ${plural(operators.length, 'operator')} installed for all namespaces into every other namespace again (the number of namespaces could not be read).`,
    };
  }
  const each = Math.max(0, input.namespaceCount - 1);
  const restores = operators.reduce((n, o) => n + Math.max(0, each - o.copies), 0);
  return {
    ...base,
    restores,
    summary: `OLM copies ${plural(operators.length, 'operator')} installed for all namespaces into the other ${plural(each, 'namespace')}: ${plural(restores, 'copied CSV')} come${restores === 1 ? 's' : ''} back.`,
  };
}
