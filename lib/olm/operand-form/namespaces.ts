// Where an operand can go: the namespaces its operator watches. OLM writes the OperatorGroup's
// `status.namespaces` onto each of its CSVs as the `olm.targetNamespaces` annotation, so the CSV
// alone says it; `[""]` (or nothing at all, as an OperatorGroup without targets) means every
// namespace. An operand anywhere else would never be reconciled.

export type WatchedNamespaces = { all: true } | { all: false; namespaces: string[] };

/** From the CSV's target namespaces (`undefined` when OLM has not written them yet). */
export function watchedNamespaces(
  targets: readonly string[] | undefined,
  operatorNamespace: string,
): WatchedNamespaces {
  // Before OLM has resolved the group the operator's own namespace is the one sure answer.
  if (targets === undefined) return { all: false, namespaces: [operatorNamespace] };
  const named = [...new Set(targets.map((t) => t.trim()).filter(Boolean))];
  if (!named.length) return { all: true };
  return { all: false, namespaces: named.sort() };
}

/**
 * Where an owned API's instances are listed: once, cluster-wide (`undefined`), for a
 * cluster-scoped API or an operator that watches every namespace; else in each watched namespace.
 */
export function operandListScopes(watched: WatchedNamespaces, namespaced: boolean): (string | undefined)[] {
  return !namespaced || watched.all ? [undefined] : watched.namespaces;
}

export function watches(watched: WatchedNamespaces, namespace: string): boolean {
  return watched.all || watched.namespaces.includes(namespace);
}

/**
 * The namespace the form starts with: the one the person came from when the operator watches it
 * (the page of OLM's copy of the CSV in a namespace the operator serves), else the operator's own
 * when it watches it (the usual install), else the first it watches (a SingleNamespace operator
 * whose group targets another namespace).
 */
export function defaultOperandNamespace(watched: WatchedNamespaces, operatorNamespace: string, from?: string): string {
  if (from && watches(watched, from)) return from;
  if (watched.all || watched.namespaces.includes(operatorNamespace)) return operatorNamespace;
  return watched.namespaces[0] ?? operatorNamespace;
}
