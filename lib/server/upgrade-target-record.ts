// The record of live upgrade targets, as pure functions over a ConfigMap's `data`: a sealed target
// is honoured only while this record names its id on its Subscription. Setting a target names it
// (and so retires the one it replaces); cancelling and reaching remove it. A target cancelled,
// reached or replaced is therefore refused when its saved value is written back, however valid
// its seal: a seal says the console wrote the value, this record says the value is still wanted.
// lib/server/upgrade-target-store.ts reads and writes it in the cluster.
//
//   t.<Subscription uid>  →  "<target id>.<set at, ms, base 36>.<namespace>"
//
// One entry a Subscription, since a Subscription carries one target. Entries go when the seal
// would refuse their target anyway (older than its lifetime). The record holds at most `entries`;
// past that, the namespace holding most loses its oldest first, so whoever fills the record from
// their own namespaces mostly retires their own targets. A target retired that way is refused
// like a cancelled one: the record errs towards approving less, never more.

export type TargetRecordData = Record<string, string>;

export interface TargetRecordLimits {
  /** A target's lifetime (its seal's): entries older than that are dropped. */
  maxAgeMs: number;
  /** Live targets the record holds before the fullest namespace's oldest are retired. */
  entries: number;
}

/** At most ~140 bytes an entry: 5,000 stay well inside a ConfigMap's 1 MiB. */
export const DEFAULT_TARGET_ENTRIES = 5_000;

export interface LiveTarget {
  /** The Subscription's uid: a Subscription made again under the same name is another. */
  uid: string;
  id: string;
  setAt: number;
  namespace: string;
}

const KEY = /^t\.[-0-9A-Za-z]{1,64}$/;
const ID = /^[A-Za-z0-9_-]{16,64}$/;
const NAMESPACE = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;
const TIME36 = /^[0-9a-z]{1,11}$/;

const keyOf = (uid: string) => `t.${uid}`;

function parse(key: string, value: string): LiveTarget | undefined {
  if (!KEY.test(key)) return undefined;
  const [id = '', time = '', namespace = '', ...more] = value.split('.');
  if (more.length || !ID.test(id) || !TIME36.test(time) || !NAMESPACE.test(namespace)) return undefined;
  return { uid: key.slice(2), id, setAt: parseInt(time, 36), namespace };
}

/** The target live on this Subscription, if any. */
export function liveTargetOf(data: TargetRecordData, uid: string): LiveTarget | undefined {
  const value = data[keyOf(uid)];
  return value === undefined ? undefined : parse(keyOf(uid), value);
}

/** The record with `t` the one live target of its Subscription (any earlier one retired). */
export function withLive(data: TargetRecordData, t: LiveTarget): TargetRecordData {
  const value = `${t.id}.${Math.floor(t.setAt).toString(36)}.${t.namespace}`;
  if (!parse(keyOf(t.uid), value)) throw new Error(`not a target the record can hold: ${JSON.stringify(t)}`);
  return { ...data, [keyOf(t.uid)]: value };
}

/** The record with the Subscription's live target retired: any, or only the one with this id. */
export function withSpent(data: TargetRecordData, uid: string, id?: string): TargetRecordData {
  const live = liveTargetOf(data, uid);
  if (!(keyOf(uid) in data) || (id !== undefined && live && live.id !== id)) return data;
  const rest = { ...data };
  delete rest[keyOf(uid)];
  return rest;
}

/**
 * The record pruned and bounded: unreadable entries and those past a target's lifetime go, then
 * while it holds more than `entries`, the oldest of the namespace holding most is retired.
 */
export function normalized(data: TargetRecordData, now: number, limits: TargetRecordLimits): TargetRecordData {
  const byNamespace = new Map<string, LiveTarget[]>();
  let count = 0;
  for (const [k, v] of Object.entries(data)) {
    const t = parse(k, v);
    if (!t || t.setAt + limits.maxAgeMs < now) continue;
    byNamespace.set(t.namespace, [...(byNamespace.get(t.namespace) ?? []), t]);
    count++;
  }
  for (const list of byNamespace.values()) list.sort((a, b) => a.setAt - b.setAt || (a.uid < b.uid ? -1 : 1));
  for (; count > limits.entries; count--) {
    let fullest: [string, LiveTarget[]] = ['', []];
    for (const [ns, list] of byNamespace) {
      const more = list.length > fullest[1].length || (list.length === fullest[1].length && ns < fullest[0]);
      if (more) fullest = [ns, list];
    }
    fullest[1].shift();
  }
  const out: TargetRecordData = {};
  for (const list of byNamespace.values()) for (const t of list) Object.assign(out, withLive({}, t));
  return out;
}

/** The size the API server counts against a ConfigMap's 1 MiB: the keys' and values' bytes. */
export function recordBytes(data: TargetRecordData): number {
  let n = 0;
  for (const [k, v] of Object.entries(data)) n += Buffer.byteLength(k) + Buffer.byteLength(v);
  return n;
}
