// The events kube-controller-manager's workload controllers and the scheduler record as they
// work (core/v1 Events, one per occurrence), which `kubectl describe` and `kubectl events` show:
// a Deployment scaling its ReplicaSets, a controller creating or deleting pods, a pod scheduled.
import { randomBytes } from 'node:crypto';
import type { ApiCore } from '../server/api-core';
import type { KObject } from '../store/types';

export function recordEvent(
  api: ApiCore,
  about: KObject,
  reason: string,
  message: string,
  component: string,
  at: string,
  type: 'Normal' | 'Warning' = 'Normal',
): void {
  const events = api.resources.find('', 'v1', 'events')!;
  const ns = about.metadata.namespace ?? 'default';
  api.createObject(events, {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: `${about.metadata.name}.${randomBytes(8).toString('hex')}`, namespace: ns },
    involvedObject: {
      apiVersion: about.apiVersion,
      kind: about.kind,
      namespace: ns,
      name: about.metadata.name,
      uid: about.metadata.uid,
      resourceVersion: about.metadata.resourceVersion,
    },
    reason,
    message,
    source: { component },
    firstTimestamp: at,
    lastTimestamp: at,
    count: 1,
    type,
    reportingComponent: component,
    reportingInstance: '',
  } as unknown as KObject);
}
