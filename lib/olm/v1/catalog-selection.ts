// Which ClusterCatalogs a ClusterExtension resolves against (operator-controller v1.2.0
// resolve/catalog.go and catalogmetadata/client/client.go): those its `selector` matches (none or
// an empty one: all), less those with availabilityMode Unavailable. A selected catalog that is not
// Serving, or has no resolved source, is an error for the whole resolution, not skipped.
// docs/olm-v1/resolution.md#catalogs.

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
}

export interface CatalogFacts {
  name: string;
  labels: Record<string, string>;
  priority: number;
  availabilityMode?: string;
  serving: boolean;
  resolvedRef?: string;
}

type Requirement = (labels: Record<string, string>) => boolean;

/** A selector as metav1.LabelSelectorAsSelector reads it, or its error text. */
export function labelSelector(s: LabelSelector | undefined): Requirement | { error: string } {
  const reqs: Requirement[] = [];
  for (const [k, v] of Object.entries(s?.matchLabels ?? {})) reqs.push((l) => l[k] === v);
  for (const e of s?.matchExpressions ?? []) {
    const values = e.values ?? [];
    switch (e.operator) {
      case 'In':
        reqs.push((l) => e.key in l && values.includes(l[e.key]!));
        break;
      case 'NotIn':
        reqs.push((l) => !(e.key in l) || !values.includes(l[e.key]!));
        break;
      case 'Exists':
        reqs.push((l) => e.key in l);
        break;
      case 'DoesNotExist':
        reqs.push((l) => !(e.key in l));
        break;
      default:
        return { error: `"${e.operator}" is not a valid label selector operator` };
    }
  }
  return (labels) => reqs.every((r) => r(labels));
}

export type SelectedCatalog = { name: string; priority: number; ref: string } | { name: string; error: string };

/** The catalogs to walk, in list order, each readable (its resolved ref) or why not. */
export function selectCatalogs(
  catalogs: readonly CatalogFacts[],
  selector: LabelSelector | undefined,
): SelectedCatalog[] | { error: string } {
  const matches = labelSelector(selector);
  if ('error' in matches) return { error: `desired catalog selector is invalid: ${matches.error}` };
  return catalogs
    .filter((c) => matches(c.labels) && c.availabilityMode !== 'Unavailable')
    .map((c) => {
      if (!c.serving) return { name: c.name, error: `catalog "${c.name}" is not being served` };
      if (!c.resolvedRef)
        return { name: c.name, error: `error: catalog "${c.name}" has a nil status.resolvedSource value` };
      return { name: c.name, priority: c.priority, ref: c.resolvedRef };
    });
}
