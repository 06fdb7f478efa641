// Does a CSV's installModes allow the namespaces its OperatorGroup targets? OLM's
// InstallModeSet.Supports, with its exact messages (docs/olm/install-modes.md#the-rule).
import type { InstallMode, InstallModeType } from '../resources/cluster-service-version';

export type SupportVerdict =
  | { ok: true; mode: InstallModeType }
  | { ok: false; reason: 'InvalidInstallModes' | 'UnsupportedOperatorGroup'; message: string };

function supportedSet(installModes: readonly InstallMode[]): { set: Map<string, boolean>; duplicate?: string } {
  const set = new Map<string, boolean>();
  for (const m of installModes) {
    if (set.has(m.type)) return { set, duplicate: m.type };
    set.set(m.type, m.supported);
  }
  return { set };
}

/** The install mode a target set needs, per docs/olm/install-modes.md#the-rule. */
export function requiredInstallMode(
  operatorNamespace: string,
  targets: readonly string[],
): InstallModeType | undefined {
  if (targets.length === 0) return undefined;
  if (targets.length === 1) {
    if (targets[0] === '') return 'AllNamespaces';
    return targets[0] === operatorNamespace ? 'OwnNamespace' : 'SingleNamespace';
  }
  return 'MultiNamespace';
}

export function supportsTargetNamespaces(
  installModes: readonly InstallMode[],
  operatorNamespace: string,
  targets: readonly string[],
): SupportVerdict {
  const { set, duplicate } = supportedSet(installModes);
  if (duplicate !== undefined)
    return {
      ok: false,
      reason: 'InvalidInstallModes',
      message: `installModes contains the type ${duplicate} more than once`,
    };
  const unsupported = (message: string): SupportVerdict => ({ ok: false, reason: 'UnsupportedOperatorGroup', message });
  const has = (t: InstallModeType) => set.get(t) === true;

  if (targets.length === 0)
    return unsupported('operatorgroup has invalid selected namespaces, cannot configure to watch zero namespaces');
  if (targets.length === 1) {
    const t = targets[0]!;
    if (t === '')
      return has('AllNamespaces')
        ? { ok: true, mode: 'AllNamespaces' }
        : unsupported('AllNamespaces InstallModeType not supported, cannot configure to watch all namespaces');
    if (t === operatorNamespace)
      return has('OwnNamespace')
        ? { ok: true, mode: 'OwnNamespace' }
        : unsupported('OwnNamespace InstallModeType not supported, cannot configure to watch own namespace');
    return has('SingleNamespace')
      ? { ok: true, mode: 'SingleNamespace' }
      : unsupported('SingleNamespace InstallModeType not supported, cannot configure to watch one namespace');
  }
  // In OLM's order (InstallModeSet.Supports): MultiNamespace first, then each namespace in turn.
  if (!has('MultiNamespace'))
    return unsupported(
      `MultiNamespace InstallModeType not supported, cannot configure to watch ${targets.length} namespaces`,
    );
  for (const t of targets) {
    if (t === operatorNamespace && !has('OwnNamespace'))
      return unsupported('OwnNamespace InstallModeType not supported, cannot configure to watch own namespace');
    if (t === '')
      return unsupported(
        'operatorgroup has invalid selected namespaces, NamespaceAll found when |selected namespaces| > 1',
      );
  }
  return { ok: true, mode: 'MultiNamespace' };
}
