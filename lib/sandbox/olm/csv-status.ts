// How the OLM operator writes a CSV's phase: the status with its bounded history of conditions,
// and the Event a person reads in `kubectl describe`. Every part that moves a CSV writes through
// here, so a phase change and its Event never part.
import { randomBytes } from 'node:crypto';
import type { KObject } from '../store/types';
import { OperatorBase, now } from './operator-base';
import { csvView } from './olm-views';

export class CsvStatusWriter extends OperatorBase {
  setPhase(csv: KObject, phase: string, reason: string, message: string, extra: Record<string, unknown> = {}): KObject {
    const st = csvView(csv).status ?? {};
    if (st.phase === phase && st.reason === reason && st.message === message && Object.keys(extra).length === 0)
      return csv;
    const t = now();
    const conditions =
      st.phase === phase && st.reason === reason
        ? st.conditions
        : [...(st.conditions ?? []), { phase, reason, message, lastUpdateTime: t, lastTransitionTime: t }].slice(-20);
    const next = this.writeStatus(this.csvs, csv, {
      ...st,
      ...extra,
      phase,
      reason,
      message,
      lastUpdateTime: t,
      lastTransitionTime: st.phase === phase ? st.lastTransitionTime : t,
      conditions,
    });
    if (st.phase !== phase || st.reason !== reason)
      this.event(next, phase === 'Failed' ? 'Warning' : 'Normal', reason, message);
    return next;
  }

  event(obj: KObject, type: string, reason: string, message: string): void {
    const evRes = this.res('', 'v1', 'events');
    const t = now();
    try {
      this.api.createObject(evRes, {
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${obj.metadata.name}.${randomBytes(8).toString('hex')}`, namespace: obj.metadata.namespace },
        involvedObject: {
          apiVersion: obj.apiVersion,
          kind: obj.kind,
          name: obj.metadata.name,
          namespace: obj.metadata.namespace,
          uid: obj.metadata.uid,
          resourceVersion: obj.metadata.resourceVersion,
        },
        reason,
        message,
        type,
        count: 1,
        firstTimestamp: t,
        lastTimestamp: t,
        source: { component: 'operator-lifecycle-manager' },
        reportingComponent: 'operator-lifecycle-manager',
      });
    } catch {
      // events are best effort, as in a real cluster
    }
  }
}
