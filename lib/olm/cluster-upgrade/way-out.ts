// The nearest version that clears a maxOpenShiftVersion blocker: walking the path OLM takes from
// the installed CSV (one InstallPlan per hop, lib/olm/graph/update-path), the first bundle whose
// own maxOpenShiftVersion is absent or not below the target.
import type { UpdateStep } from '../graph/update-path';
import { blocksTarget, judgeValue, type Minor } from './max-openshift-version';

export function firstClearing(
  steps: readonly UpdateStep[],
  maxOf: (csv: string) => string | undefined,
  target: Minor,
): { to: string; hops: string[] } | undefined {
  const hops: string[] = [];
  for (const s of steps) {
    hops.push(s.to);
    const raw = maxOf(s.to);
    if (raw === undefined) return { to: s.to, hops: [...hops] };
    const judged = judgeValue(raw);
    if (judged.kind === 'max' && !blocksTarget(judged.max, target)) return { to: s.to, hops: [...hops] };
  }
  return undefined;
}
