// A bundle as one side of an upgrade's comparison: its CSV and other objects, where they were read
// (lib/api/upgrade-changes.ts BundleSource), and what could not be read; or why it is not known at
// all. The readers of each side (installed-v0.ts, plan-target.ts, v1-bundles.ts) answer this.
import type { BundleSide } from '../../api/upgrade-changes';
import type { BundleObject } from '../../olm/bundle/registry-v1-files';
import type { BundleManifests } from '../bundle-images/bundle-manifests';

export type ReadBundle = (BundleSide & { csv: BundleObject; others: BundleObject[] }) | { unknown: string };

/** bundleManifests' answer as one side: `catalog` for inline objects, `image` for a pulled one. */
export function fromManifests(bundle: string, m: BundleManifests, fallback?: string): ReadBundle {
  if ('unknown' in m) return { unknown: fallback ? `${fallback}; and ${m.unknown}` : m.unknown };
  return { bundle, source: m.from, csv: m.csv, others: m.others, gaps: [], ...(fallback ? { fallback } : {}) };
}

/**
 * The most CRDs read from the cluster for one side: a bundle names them, so a hostile one could
 * ask for thousands of reads; the rest are a gap, said.
 */
export const MAX_CRD_READS = 200;

/** The words of a Kubernetes refusal, for a gap or a fallback. */
export function refusal(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
