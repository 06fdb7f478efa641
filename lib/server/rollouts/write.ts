// Writes a rollout on the hub as the person, after previewing it again (never trusting a preview
// the browser holds): the Namespace and cluster-set bindings it lacks, then the Placement, then
// the ManifestWorkReplicaSet, so the hub never has a replica set without its Placement. An
// existing rollout of the console (same name, its label) gets the new spec: for OCM that is an
// upgrade, rolled out again group by group.
import type { KubeClient } from '../../k8s/client';
import { NAMESPACE_TYPE } from '../../k8s/core-kinds';
import type { RolloutChoices } from '../../olm/rollout/choices';
import type { HubObject } from '../../olm/rollout/hub-objects';
import { ApiError } from '../api-error';
import { step } from '../install-step';
import type { RolloutPreview } from '../../api/fleet-rollouts';
import { previewRollout } from './preview';
import { typeOfKind } from './resources';

export async function writeRollout(
  hub: KubeClient,
  c: RolloutChoices,
): Promise<{ preview: RolloutPreview; written: string[] }> {
  const preview = await previewRollout(hub, c);
  if (preview.blockers.length)
    throw new ApiError(409, 'Conflict', preview.blockers.join('; '), { blockers: preview.blockers });
  const written: string[] = [];
  for (const o of preview.objects) {
    const t = o.kind === 'Namespace' ? NAMESPACE_TYPE : typeOfKind[o.kind]!;
    const what = `${o.exists ? 'updating' : 'creating'} ${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;
    if (o.exists) {
      await step(what, async () => {
        const current = await hub.get<HubObject>(t, o.name, o.namespace);
        await hub.replace(t, { ...current, spec: (o.object as { spec: unknown }).spec });
      });
    } else await step(what, () => hub.create(t, o.object));
    written.push(`${o.kind} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`);
  }
  return { preview, written };
}
