// Whether an operator's CRDs can go with it. OLM never deletes CRDs (an uninstall leaves them and
// every instance); removing them by hand is safe only when no other installed operator owns or
// requires the same CRD — OLM resolves APIs cluster-wide, and another CSV that requires a CRD
// fails `RequirementsNotMet` once it is gone — and when the instances, which go with their CRD,
// are meant to go.
import { isCopiedCsv, type ClusterServiceVersion } from '../resources/cluster-service-version';

export interface CrdUse {
  crd: string;
  csv: string;
  namespace: string;
  relation: 'owns' | 'requires';
}

/**
 * Other operators' claims on `crds`: each CSV (not OLM's copies, not `self` itself) that owns or
 * requires one of them. A CSV being replaced by `self`'s own upgrade is still another CSV here:
 * removing the CRD under an upgrade in progress is as unsafe.
 */
export function crdsInUse(
  crds: readonly string[],
  csvs: readonly ClusterServiceVersion[],
  self: { namespace: string; name: string },
): CrdUse[] {
  const wanted = new Set(crds);
  const out: CrdUse[] = [];
  for (const c of csvs) {
    if (isCopiedCsv(c)) continue;
    const ns = c.metadata?.namespace ?? '';
    const name = c.metadata?.name ?? '';
    if (ns === self.namespace && name === self.name) continue;
    for (const d of c.spec?.customresourcedefinitions?.owned ?? [])
      if (wanted.has(d.name)) out.push({ crd: d.name, csv: name, namespace: ns, relation: 'owns' });
    for (const d of c.spec?.customresourcedefinitions?.required ?? [])
      if (wanted.has(d.name)) out.push({ crd: d.name, csv: name, namespace: ns, relation: 'requires' });
  }
  return out.sort(
    (a, b) => a.crd.localeCompare(b.crd) || a.namespace.localeCompare(b.namespace) || a.csv.localeCompare(b.csv),
  );
}

/** The words a person types to confirm deleting `n` instances with their CRDs. */
export function instanceConfirmation(n: number): string {
  return `delete ${n} instance${n === 1 ? '' : 's'}`;
}
