// Writes a rollout on the hub as the person, after previewing it again (never trusting a preview
// the browser holds): the Namespace and cluster-set bindings it lacks, then the Placement, then
// the ManifestWorkReplicaSet, so the hub never has a replica set without its Placement. Writing
// an existing rollout of the console (same name, its label) with the same template updates its
// set in place (its placement strategy); with another template it is an upgrade, a new
// generation (lib/olm/rollout/generations.ts): the current set is deleted at the uid the preview
// saw and the new one is created only once the hub has let the old one go. OCM's work controller
// drops the set's finalizer only after deleting every cluster's ManifestWork of it, and a work
// being deleted is never applied again by its agent (ocm pkg/work/spoke/controllers/
// manifestcontroller/manifestwork_controller.go), so no cluster has the old template applied
// over the new one; what the old works installed stays (their template orphans).
import type { KubeClient } from '../../k8s/client';
import { NAMESPACE_TYPE } from '../../k8s/core-kinds';
import { isKubeError } from '../../k8s/errors';
import type { RolloutChoices } from '../../olm/rollout/choices';
import type { HubObject } from '../../olm/rollout/hub-objects';
import { ApiError } from '../api-error';
import { step } from '../install-step';
import type { RolloutPreview } from '../../api/fleet-rollouts';
import { previewRollout } from './preview';
import { MWRS_TYPE, typeOfKind } from './resources';

/** How long the hub's work controller may take to let a replaced set go. */
const REPLACED_GONE_MS = 60_000;

async function waitGone(hub: KubeClient, namespace: string, name: string, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await hub.get(MWRS_TYPE, name, namespace);
    } catch (err) {
      if (isKubeError(err, 404)) return true;
      throw err;
    }
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function writeRollout(
  hub: KubeClient,
  c: RolloutChoices,
  opts: { replacedGoneMs?: number } = {},
): Promise<{ preview: RolloutPreview; written: string[] }> {
  const preview = await previewRollout(hub, c);
  if (preview.blockers.length)
    throw new ApiError(409, 'Conflict', preview.blockers.join('; '), { blockers: preview.blockers });
  const written: string[] = [];
  for (const o of preview.objects) {
    const t = o.kind === 'Namespace' ? NAMESPACE_TYPE : typeOfKind[o.kind]!;
    const where = `${o.namespace ? `${o.namespace}/` : ''}`;
    if (o.replaces) {
      const old = o.replaces.name;
      await step(`deleting ManifestWorkReplicaSet ${where}${old}, the generation the upgrade replaces`, () =>
        hub.delete(MWRS_TYPE, old, { namespace: o.namespace, ...(o.replaces!.uid ? { uid: o.replaces!.uid } : {}) }),
      );
      written.push(`deleted ManifestWorkReplicaSet ${where}${old}`);
      if (!(await waitGone(hub, o.namespace!, old, opts.replacedGoneMs ?? REPLACED_GONE_MS)))
        throw new ApiError(
          504,
          'Timeout',
          `ManifestWorkReplicaSet ${where}${old} is still being deleted after ${(opts.replacedGoneMs ?? REPLACED_GONE_MS) / 1000} s ` +
            `(OCM's work controller removes its ManifestWorks first): ${o.name} was not created. Write the ` +
            'rollout again once it is gone; until then every cluster keeps what it runs.',
          { written },
        );
    }
    const what = `${o.exists ? 'updating' : 'creating'} ${o.kind} ${where}${o.name}`;
    if (o.exists) {
      await step(what, async () => {
        const current = await hub.get<HubObject>(t, o.name, o.namespace);
        await hub.replace(t, { ...current, spec: (o.object as { spec: unknown }).spec });
      });
    } else await step(what, () => hub.create(t, o.object));
    written.push(`${o.kind} ${where}${o.name}`);
  }
  return { preview, written };
}
