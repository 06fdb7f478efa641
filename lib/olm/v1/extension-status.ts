// A ClusterExtension's state in words, from the conditions operator-controller v1.2.0 writes
// (controllers/clusterextension_controller.go and common_controller.go; the table per outcome is
// docs/olm-v1/conditions.md#clusterextension): Installed says whether a bundle is deployed,
// Progressing whether v1 reached the desired state, is retrying (Retrying) or has given up
// (Blocked). Conditions carry observedGeneration, so a spec change v1 has not acted on yet is seen.
// Deprecations come from the Deprecated family; a resolution failure fills those with
// False/Failed/<error>, which is not a deprecation. docs/olm-v1/extensions.md#status.
import type { Condition } from '../resources/common';

export type ExtensionSeverity = 'ok' | 'progressing' | 'warning' | 'error';

export interface ExtensionStatus {
  /** Short label for a badge. */
  label: string;
  severity: ExtensionSeverity;
  /** A sentence saying what is installed, what v1 is doing and why not, in v1's own words where it has them. */
  detail: string;
}

export interface ExtensionFacts {
  generation?: number;
  deleting: boolean;
  conditions: readonly Condition[];
  installed?: { name?: string; version?: string };
}

const find = (f: ExtensionFacts, type: string) => f.conditions.find((c) => c.type === type);

/** Whether v1 has written its conditions for the spec as it is now. */
export function extensionCaughtUp(f: ExtensionFacts): boolean {
  const p = find(f, 'Progressing');
  if (!p) return false;
  return f.generation === undefined || p.observedGeneration === undefined || p.observedGeneration >= f.generation;
}

export function extensionStatus(f: ExtensionFacts): ExtensionStatus {
  const installed = find(f, 'Installed');
  const progressing = find(f, 'Progressing');
  const bundle = f.installed?.name
    ? `${f.installed.name}${f.installed.version ? ` (${f.installed.version})` : ''}`
    : undefined;
  if (f.deleting)
    return {
      label: 'Uninstalling',
      severity: 'progressing',
      detail: 'The ClusterExtension is being deleted; Kubernetes removes what it installed once v1 lets it go.',
    };
  if (!installed && !progressing)
    return {
      label: 'Pending',
      severity: 'progressing',
      detail: 'operator-controller has not reported on this ClusterExtension yet.',
    };
  const isInstalled = installed?.status === 'True';
  const msg = progressing?.message ?? '';
  if (!extensionCaughtUp(f))
    return {
      label: isInstalled ? 'Updating' : 'Installing',
      severity: 'progressing',
      detail: `operator-controller has not acted on the latest change yet${bundle ? `; ${bundle} is installed` : ''}.`,
    };
  if (progressing?.reason === 'Blocked')
    return {
      label: isInstalled ? 'Installed, blocked' : 'Blocked',
      severity: 'error',
      detail: `${bundle ? `${bundle} is installed, but v` : 'V'}1 will not retry until the spec changes: ${msg}`,
    };
  if (progressing?.reason === 'Retrying')
    return isInstalled
      ? {
          label: 'Installed, retrying',
          severity: 'warning',
          detail: `${bundle ?? 'A bundle'} is installed; v1 cannot reach the desired state and retries: ${msg}`,
        }
      : {
          label: 'Not installed',
          severity: 'error',
          detail: `Nothing is installed; v1 retries: ${msg}`,
        };
  if (isInstalled)
    return {
      label: 'Installed',
      severity: 'ok',
      detail: `${bundle ?? 'The bundle'} is installed: ${installed?.message ?? ''}`.trim(),
    };
  return {
    label: 'Not installed',
    severity: 'error',
    detail: installed?.message || 'No bundle installed',
  };
}

const DEPRECATION_KINDS = [
  ['PackageDeprecated', 'package'],
  ['ChannelDeprecated', 'channel'],
  ['BundleDeprecated', 'bundle'],
] as const;

/** What the catalog deprecates of the resolved package, channels or bundle, each with the catalog's message. */
export function extensionDeprecations(
  conditions: readonly Condition[],
): { of: 'package' | 'channel' | 'bundle'; message: string }[] {
  const out: { of: 'package' | 'channel' | 'bundle'; message: string }[] = [];
  for (const [type, of] of DEPRECATION_KINDS) {
    const c = conditions.find((x) => x.type === type);
    // Reason Failed carries a resolution error, not a deprecation.
    if (c?.status !== 'True' || c.reason !== 'Deprecated') continue;
    for (const m of (c.message ?? '').split('\n').filter((s) => s.trim())) out.push({ of, message: m.trim() });
  }
  return out;
}
