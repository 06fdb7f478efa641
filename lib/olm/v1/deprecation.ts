// OLM v1's deprecation conditions on a ClusterExtension, from the resolved package's olm.deprecations
// (operator-controller v1.2.0 controllers/clusterextension_controller.go SetDeprecationStatus):
// PackageDeprecated, ChannelDeprecated (only channels named in spec — none when channels is empty),
// BundleDeprecated for the resolved bundle, each with a message of "\n"-prefixed entries; and
// Deprecated joining them with ";". Reason is Deprecated whether True or False.
// docs/olm-v1/conditions.md#deprecation.
import type { DeprecationEntry, FbcDeprecations } from '../fbc/types';

export interface DeprecationCondition {
  type: 'Deprecated' | 'PackageDeprecated' | 'ChannelDeprecated' | 'BundleDeprecated';
  status: 'True' | 'False';
  reason: 'Deprecated';
  message: string;
}

const KINDS = ['PackageDeprecated', 'ChannelDeprecated', 'BundleDeprecated'] as const;

/** The four conditions, in the order operator-controller sets them. */
export function deprecationConditions(
  bundleName: string,
  channels: readonly string[],
  deprecation: FbcDeprecations | undefined,
): DeprecationCondition[] {
  const by: Partial<Record<(typeof KINDS)[number], DeprecationEntry[]>> = {};
  for (const e of deprecation?.entries ?? []) {
    const schema = e.reference.schema;
    if (schema === 'olm.package') by.PackageDeprecated = [e];
    else if (schema === 'olm.channel' && channels.includes(e.reference.name ?? ''))
      by.ChannelDeprecated = [...(by.ChannelDeprecated ?? []), e];
    else if (schema === 'olm.bundle' && e.reference.name === bundleName) by.BundleDeprecated = [e];
  }
  const messages = KINDS.flatMap((k) => (by[k] ?? []).map((e) => e.message));
  const out: DeprecationCondition[] = [
    {
      type: 'Deprecated',
      status: messages.length ? 'True' : 'False',
      reason: 'Deprecated',
      message: messages.join(';'),
    },
  ];
  for (const k of KINDS) {
    const entries = by[k];
    out.push({
      type: k,
      status: entries ? 'True' : 'False',
      reason: 'Deprecated',
      message: (entries ?? []).map((e) => `\n${e.message}`).join(''),
    });
  }
  return out;
}
