// What an OLM v1 version change does against the installed bundle: both bundles read as the person
// (v1-sides.ts) and compared (compare-sides.ts), for the version-change preview.
import type { VersionChangeChanges } from '../../api/upgrade-changes';
import type { KubeClient } from '../../k8s/client';
import type { FbcBundle } from '../../olm/fbc/types';
import { compareSides } from './compare-sides';
import { sideAnswer } from './install-plan-changes';
import { installedV1Bundle, v1TargetBundle } from './v1-sides';

export async function versionChangeSides(
  client: KubeClient,
  installed: string | undefined,
  target: FbcBundle,
  bundles: readonly FbcBundle[],
): Promise<VersionChangeChanges> {
  const [from, to] = await Promise.all([installedV1Bundle(client, installed, bundles), v1TargetBundle(client, target)]);
  return { installed: sideAnswer(from), target: sideAnswer(to), changes: compareSides(from, to) };
}
