// The health of what a ClusterExtension installed, object by object, and one verdict for all of
// them (the single health view asked for in operator-controller#390; v1.2.0 itself reports only
// Installed and Progressing). A Deployment is judged as `kubectl rollout status` judges it
// (k8s.io/kubectl pkg/polymorphichelpers/rollout_status.go, DeploymentStatusViewer); a
// CustomResourceDefinition by the API server's NamesAccepted and Established conditions; the
// other kinds registry+v1 bundles carry (RBAC, ServiceAccounts, Services, ConfigMaps…) have no
// status, so being there is their health. docs/olm-v1/extensions.md#health.
import type { Condition } from '../resources/common';

export type ObjectHealth = 'healthy' | 'progressing' | 'degraded';

export interface HealthFacts {
  kind: string;
  name: string;
  generation?: number;
  spec?: { replicas?: number };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    conditions?: Condition[];
  };
  deleting?: boolean;
}

export interface HealthAnswer {
  health: ObjectHealth;
  detail: string;
}

function deploymentHealth(d: HealthFacts): HealthAnswer {
  const s = d.status ?? {};
  if ((d.generation ?? 0) > (s.observedGeneration ?? 0))
    return { health: 'progressing', detail: 'waiting for the Deployment controller to observe the latest spec' };
  const progressing = s.conditions?.find((c) => c.type === 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded')
    return { health: 'degraded', detail: `exceeded its progress deadline: ${progressing.message ?? ''}`.trim() };
  const updated = s.updatedReplicas ?? 0;
  const wanted = d.spec?.replicas ?? 1;
  if (updated < wanted)
    return { health: 'progressing', detail: `rollout: ${updated} of ${wanted} new replicas updated` };
  if ((s.replicas ?? 0) > updated)
    return {
      health: 'progressing',
      detail: `rollout: ${(s.replicas ?? 0) - updated} old replicas pending termination`,
    };
  if ((s.availableReplicas ?? 0) < updated)
    return {
      health: 'progressing',
      detail: `rollout: ${s.availableReplicas ?? 0} of ${updated} updated replicas available`,
    };
  return { health: 'healthy', detail: `rolled out: ${s.availableReplicas ?? 0} of ${wanted} replicas available` };
}

function crdHealth(c: HealthFacts): HealthAnswer {
  const conds = c.status?.conditions ?? [];
  const names = conds.find((x) => x.type === 'NamesAccepted');
  if (names?.status === 'False')
    return { health: 'degraded', detail: `names not accepted: ${names.message ?? names.reason ?? ''}`.trim() };
  const est = conds.find((x) => x.type === 'Established');
  if (est?.status === 'True') return { health: 'healthy', detail: 'Established: the API server serves it' };
  return { health: 'progressing', detail: `not Established yet${est?.message ? `: ${est.message}` : ''}` };
}

export function objectHealth(o: HealthFacts): HealthAnswer {
  if (o.deleting) return { health: 'progressing', detail: 'being deleted' };
  if (o.kind === 'Deployment') return deploymentHealth(o);
  if (o.kind === 'CustomResourceDefinition') return crdHealth(o);
  return { health: 'healthy', detail: 'present' };
}

export type VerdictState = 'Healthy' | 'Progressing' | 'Degraded' | 'Not installed' | 'Unknown';

export interface Verdict {
  state: VerdictState;
  detail: string;
}

/**
 * One verdict over the extension and its objects: nothing installed says so; a degraded object
 * outweighs one on its way; objects that could not be read make the verdict "Unknown" rather than
 * a "Healthy" that was never checked.
 */
export function extensionVerdict(input: {
  installed: boolean;
  objects: readonly { kind: string; name: string; health: ObjectHealth }[];
  /** Kinds the person could not read (their objects' health is not known). */
  unread: readonly string[];
}): Verdict {
  if (!input.installed) return { state: 'Not installed', detail: 'No bundle is installed, so nothing runs.' };
  const degraded = input.objects.filter((o) => o.health === 'degraded');
  const moving = input.objects.filter((o) => o.health === 'progressing');
  const names = (xs: typeof degraded) => xs.map((o) => `${o.kind} ${o.name}`).join(', ');
  if (degraded.length) return { state: 'Degraded', detail: `Not healthy: ${names(degraded)}.` };
  if (moving.length) return { state: 'Progressing', detail: `On its way: ${names(moving)}.` };
  if (input.unread.length)
    return {
      state: 'Unknown',
      detail: `What you may read is healthy, but you may not read every kind it installed (${input.unread.join(', ')}).`,
    };
  if (input.objects.length === 0)
    return { state: 'Unknown', detail: 'No object carrying this extension’s owner label could be found.' };
  return { state: 'Healthy', detail: `All ${input.objects.length} objects it installed are healthy.` };
}
