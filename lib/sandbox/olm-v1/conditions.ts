// metav1.Condition bookkeeping as apimachinery's meta.SetStatusCondition does it: a condition is
// replaced in place, and its lastTransitionTime moves only when its status changes.
export interface Condition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

export function nowRfc3339(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function setCondition(list: Condition[], c: Omit<Condition, 'lastTransitionTime'>): Condition[] {
  const i = list.findIndex((x) => x.type === c.type);
  const old = i >= 0 ? list[i] : undefined;
  const next: Condition = {
    ...c,
    lastTransitionTime:
      old && old.status === c.status && old.lastTransitionTime ? old.lastTransitionTime : nowRfc3339(),
  };
  if (i < 0) return [...list, next];
  const out = [...list];
  out[i] = next;
  return out;
}

export function findCondition(list: readonly Condition[] | undefined, type: string): Condition | undefined {
  return list?.find((c) => c.type === type);
}
