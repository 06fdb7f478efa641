// Asking every cluster of the fleet the same question as the person: a few clusters at a time
// (so fifty clusters are not fifty sockets and fifty TLS handshakes at once), each with a deadline
// (a cluster that hangs is reported as not answering and never holds the page), and each answer
// kept for a few seconds per person and cluster (a page and its refresh, or two tabs, ask once).
// An answer belongs to the cluster that gave it and to the person who asked: the cache key holds
// both, and a failure is that cluster's row, never the whole answer.
import type { ClusterError, PerCluster } from '../../api/fleet';
import type { KubeClient } from '../../k8s/client';
import { errorBody } from '../api-error';
import { clusterCacheKey, fleetRef, type FleetMember } from './members';
import type { FleetPerson } from './person';

export const FLEET_CONCURRENCY = 8;
export const FLEET_TIMEOUT_MS = 8_000;
export const FLEET_CACHE_MS = 10_000;
const MAX_ENTRIES = 5_000;

type Settled<T> = { ok: true; value: T } | { ok: false; error: ClusterError };
interface Entry {
  at: number;
  answer: Promise<Settled<unknown>>;
}

const shared = globalThis as { [key: symbol]: Map<string, Entry> | undefined };
const CACHE = Symbol.for('olm-console.fleet.cache');
const cache = (): Map<string, Entry> => (shared[CACHE] ??= new Map());

/**
 * Forgets what this person was told about a cluster (after they changed it, or a watch saw it
 * change); with `before`, only answers begun before that time. Says whether any was forgotten.
 */
export function forgetCluster(person: Pick<FleetPerson, 'key'>, cluster: string, before?: number): boolean {
  const prefix = `${person.key}\n${cluster}\n`;
  let forgot = false;
  for (const [key, entry] of cache()) {
    if (!key.startsWith(prefix) || (before !== undefined && entry.at >= before)) continue;
    cache().delete(key);
    forgot = true;
  }
  return forgot;
}

/** Runs `fn` over the items, at most `limit` at a time, answers in the items' order. */
export async function boundedMap<I, O>(items: readonly I[], limit: number, fn: (item: I) => Promise<O>): Promise<O[]> {
  const out = new Array<O>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The promise's answer, or a 504 naming the cluster when it takes longer than `ms`. */
export function withDeadline<T>(p: Promise<T>, ms: number, cluster: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          Object.assign(new Error(`cluster ${cluster} did not answer within ${ms / 1000} s`), {
            fleetTimeout: true,
          }),
        ),
      ms,
    );
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

function clusterError(err: unknown): ClusterError {
  if ((err as { fleetTimeout?: boolean }).fleetTimeout)
    return { code: 504, reason: 'Timeout', message: (err as Error).message };
  const { code, reason, message } = errorBody(err).error;
  return { code, reason, message };
}

export interface AcrossOptions {
  limit?: number;
  timeoutMs?: number;
  cacheMs?: number;
  now?: () => number;
}

/**
 * One member's answer to `read`, as the person: refused before any cached answer when the console
 * will not ask that cluster as this person, else the cached answer or a fresh one under the deadline.
 */
export async function askCluster<T>(
  member: FleetMember,
  person: FleetPerson,
  what: string,
  read: (client: KubeClient, member: FleetMember) => Promise<T>,
  opts: AcrossOptions = {},
): Promise<PerCluster<T>> {
  const { timeoutMs = FLEET_TIMEOUT_MS, cacheMs = FLEET_CACHE_MS, now = Date.now } = opts;
  const m = member;
  const entries = cache();
  // The name first (forgetCluster forgets by it), then where the name points: a hub-listed
  // cluster's address is the hub's to change, and an answer from the old one is not this cluster's.
  const key = `${person.key}\n${m.name}\n${clusterCacheKey(m) ?? ''}\n${what}`;
  // The client first: a cluster the console will not ask as this person (person.ts) is refused
  // before any cached answer, and the refusal, not being the cluster's, is never cached.
  let client: KubeClient;
  try {
    client = person.client(m);
  } catch (err) {
    return { ...fleetRef(m), ok: false as const, error: clusterError(err) };
  }
  let hit = entries.get(key);
  if (!hit || now() - hit.at > cacheMs) {
    const answer = withDeadline(
      Promise.resolve().then(() => read(client, m)),
      timeoutMs,
      m.name,
    ).then(
      (value): Settled<unknown> => ({ ok: true, value }),
      (err: unknown): Settled<unknown> => ({ ok: false, error: clusterError(err) }),
    );
    hit = { at: now(), answer };
    entries.delete(key);
    entries.set(key, hit);
    if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  }
  const settled = (await hit.answer) as Settled<T>;
  return { ...fleetRef(m), ...settled };
}

/**
 * Every member's answer to `read`, as the person, in the members' order. `what` names the
 * question for the cache (one key per person, cluster and question). `onAnswer` hears each
 * cluster's answer the moment it settles, so a caller may pass it on before the slowest is in.
 */
export async function acrossClusters<T>(
  members: readonly FleetMember[],
  person: FleetPerson,
  what: string,
  read: (client: KubeClient, member: FleetMember) => Promise<T>,
  opts: AcrossOptions & { onAnswer?: (answer: PerCluster<T>) => void } = {},
): Promise<PerCluster<T>[]> {
  const { limit = FLEET_CONCURRENCY, onAnswer } = opts;
  return boundedMap(members, limit, async (m) => {
    const answer = await askCluster(m, person, what, read, opts);
    onAnswer?.(answer);
    return answer;
  });
}
