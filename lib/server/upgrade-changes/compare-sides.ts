// What an upgrade changes, from its two sides as read (read-bundle.ts): what each bundle brings
// (lib/olm/bundle/brings.ts) compared by lib/olm/bundle/brings-change.ts, with the installed CRDs'
// status.storedVersions where the cluster gave them. A side that is not known makes the change
// unknown, with that side's reason: never an empty "nothing changes".
import type { ChangeAnswer } from '../../api/upgrade-changes';
import { bundleBrings } from '../../olm/bundle/brings';
import { bringsChange } from '../../olm/bundle/brings-change';
import type { ReadBundle } from './read-bundle';

function storedVersions(side: Extract<ReadBundle, { csv: unknown }>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const o of side.others) {
    if (o.kind !== 'CustomResourceDefinition') continue;
    const stored = (o.status as { storedVersions?: unknown } | undefined)?.storedVersions;
    if (Array.isArray(stored))
      out.set(
        String(o.metadata.name ?? ''),
        stored.filter((v) => typeof v === 'string'),
      );
  }
  return out;
}

export function compareSides(installed: ReadBundle, target: ReadBundle): ChangeAnswer {
  if ('unknown' in installed) return { unknown: `the installed bundle cannot be read: ${installed.unknown}` };
  if ('unknown' in target) return { unknown: `the new bundle cannot be read: ${target.unknown}` };
  return bringsChange(bundleBrings(installed), bundleBrings(target), { storedVersions: storedVersions(installed) });
}
