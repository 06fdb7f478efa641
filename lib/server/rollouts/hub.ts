// Rollouts need the home cluster to be an Open Cluster Management hub whose work manager serves
// ManifestWorkReplicaSets; anywhere else every rollout route says so, in one sentence, as a 404.
import type { KubeClient } from '../../k8s/client';
import { ApiError } from '../api-error';
import { MWRS_TYPE } from './resources';

export async function requireHub(hub: KubeClient): Promise<void> {
  if (!(await hub.serves(MWRS_TYPE)))
    throw new ApiError(
      404,
      'NotFound',
      'The home cluster is not an Open Cluster Management hub serving ManifestWorkReplicaSets ' +
        '(work.open-cluster-management.io/v1alpha1), so it has no rollouts',
    );
}
