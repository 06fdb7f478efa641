// Jobs on a kwok-like node: the job controller makes the pods `completions` asks for, kwok has
// them succeed at once, and the Job is complete (SuccessCriteriaMet, then Complete, with the
// reason and message Kubernetes 1.34 writes). A suspended Job waits; CronJobs start no Jobs
// (there is no schedule clock in the sandbox; `kubectl create job --from=cronjob/…` works).
import type { ApiCore } from '../server/api-core';
import { generatedName } from '../server/http-util';
import type { ServedResource } from '../server/resources';
import type { KObject } from '../store/types';
import { recordEvent } from './events';
import { kwokPod, NODE_NAME } from './pods';

type Obj = Record<string, unknown>;

/** The conditions the Job controller writes on a Job whose pods all succeeded (Kubernetes 1.34). */
export function completedConditions(now: string) {
  return ['SuccessCriteriaMet', 'Complete'].map((type) => ({
    type,
    status: 'True',
    lastProbeTime: now,
    lastTransitionTime: now,
    reason: 'CompletionsReached',
    message: 'Reached expected number of succeeded pods',
  }));
}

export function completeJob(api: ApiCore, jobs: ServedResource, pods: ServedResource, job: KObject, now: string) {
  const spec = (job.spec ?? {}) as Obj;
  const status = (job.status ?? {}) as { conditions?: Obj[] };
  // OLM v0's unpack Jobs run the bundle image: the OLM emulation's stand-in runs them (olm/unpack-pods.ts).
  if (job.metadata.labels?.['operatorframework.io/bundle-unpack-ref'] !== undefined) return;
  if (spec.suspend === true || status.conditions?.some((c) => c.type === 'Complete' || c.type === 'Failed')) return;
  const completions = typeof spec.completions === 'number' ? spec.completions : 1;
  for (let i = 0; i < completions; i++) {
    const name = generatedName(`${job.metadata.name}-`);
    const pod = api.createObject(pods, kwokPod(job, spec.template as Obj, name, {}, now, true));
    recordEvent(api, job, 'SuccessfulCreate', `Created pod: ${name}`, 'job-controller', now);
    const where = `${pod.metadata.namespace}/${name}`;
    recordEvent(api, pod, 'Scheduled', `Successfully assigned ${where} to ${NODE_NAME}`, 'default-scheduler', now);
  }
  api.updateObject(
    jobs,
    {
      ...job,
      status: {
        conditions: completedConditions(now),
        startTime: now,
        completionTime: now,
        succeeded: completions,
        terminating: 0,
        ready: 0,
        uncountedTerminatedPods: {},
      },
    },
    'status',
  );
  recordEvent(api, job, 'Completed', 'Job completed', 'job-controller', now);
}
