// Logout that holds on every replica: a session cookie is sealed, so ending it early needs a
// record every replica reads. The record lives in the cluster the console already talks to (a
// ConfigMap in the console's namespace, written with the console's own identity), so replicas
// need no shared server of their own; each re-reads it every two seconds. Its format and its
// bound (by people, not by logouts) are lib/server/session-revocation-record.ts's.
//
// Writes are serialised per replica and batched: every logout waiting while one write is in
// flight goes out in the next, so a burst of logouts is a few writes, not one each. A write
// that conflicts with another replica's is read and merged again until it lands; one that
// cannot land is an error the logout's caller reports, and the revocation stays honoured on
// this replica and is written with the next write that can be.
import { readFileSync } from 'node:fs';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import {
  DEFAULT_RECORD_LIMITS,
  isRevokedBy,
  merged,
  normalized,
  revocationKeysOf,
  withSessionRevoked,
  withUserCutoff,
  type RecordLimits,
  type RevocationData,
  type RevocationKeys,
} from './session-revocation-record';
import type { Session } from './session';
import { CONFIG_MAP_TYPE } from '../k8s/core-kinds';

export type { RevocationData } from './session-revocation-record';

export const REVOCATIONS_CONFIGMAP = 'olm-console-session-revocations';
export const POLL_MS = 2_000;
/** How long a write keeps retrying conflicts before it says it could not be made. */
const WRITE_DEADLINE_MS = 20_000;
/** How often revocations this replica could not write are tried again without a new logout. */
const RETRY_UNWRITTEN_MS = 30_000;

/** The record could not be written: the logout holds on this replica only, for now. */
export class RevocationWriteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RevocationWriteError';
  }
}

/** By name, not class: one route bundle may hold its own copy of this module (as with ApiError). */
export function isRevocationWriteError(err: unknown): err is RevocationWriteError {
  return err instanceof Error && err.name === 'RevocationWriteError';
}

interface ConfigMap {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  data?: Record<string, string>;
}

interface Waiter {
  resolve: () => void;
  reject: (err: Error) => void;
}

export interface RevocationOptions {
  /** Folding bounds of the record (tests make them small). */
  limits?: Partial<Omit<RecordLimits, 'maxSessionMs'>>;
  writeDeadlineMs?: number;
}

export class SessionRevocations {
  /** The record as last read from, or written to, the cluster. */
  private data: RevocationData = {};
  /** Revocations made here and not yet known to be in the cluster (honoured here meanwhile). */
  private local: RevocationData = {};
  private waiting: Waiter[] = [];
  private flushing = false;
  /** Bumped by every write, so that a read begun before it cannot put back the older record. */
  private writes = 0;
  private lastUnwrittenTry = 0;
  private timer?: NodeJS.Timeout;
  private loaded = false;
  private readonly limits: RecordLimits;
  private readonly writeDeadlineMs: number;
  /** Why the cluster record cannot be read or written, when it cannot. */
  problem?: string;

  constructor(
    private readonly client: KubeClient,
    readonly namespace: string,
    maxSessionMs: number,
    readonly name = REVOCATIONS_CONFIGMAP,
    opts: RevocationOptions = {},
  ) {
    this.limits = { maxSessionMs, ...DEFAULT_RECORD_LIMITS, ...opts.limits };
    this.writeDeadlineMs = opts.writeDeadlineMs ?? WRITE_DEADLINE_MS;
  }

  start(): void {
    if (this.timer) return;
    void this.reload();
    this.timer = setInterval(() => void this.tick(), POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  isRevoked(session: Session): boolean {
    return this.isRevokedByKeys(revocationKeysOf(session));
  }

  /** For checking one session again and again (an event stream does, every second). */
  isRevokedByKeys(keys: RevocationKeys): boolean {
    return isRevokedBy(this.data, keys) || isRevokedBy(this.local, keys);
  }

  get ready(): boolean {
    return this.loaded;
  }

  /** Revocations made here that the cluster does not have yet. */
  get unwritten(): number {
    return Object.keys(this.local).length;
  }

  async reload(): Promise<void> {
    const writes = this.writes;
    try {
      // Not retried: it is polled every POLL_MS, and retries' waits would keep a process whose
      // cluster went away alive, each poll starting new ones (a test process lingered 10-45 s).
      const cm = await this.client.get<ConfigMap>(CONFIG_MAP_TYPE, this.name, this.namespace, { retry: 'none' });
      if (writes === this.writes) this.data = cm.data ?? {};
      this.problem = undefined;
    } catch (err) {
      if (isKubeError(err, 404)) {
        if (writes === this.writes) this.data = {};
        this.problem = undefined;
      } else {
        this.problem = `cannot read ConfigMap ${this.namespace}/${this.name}: ${(err as Error).message}`;
      }
    }
    this.loaded = true;
  }

  /** Ends this one session on every replica; resolves once the cluster has it. */
  revokeSession(session: Session, now = Date.now()): Promise<void> {
    return this.record((d) => withSessionRevoked(d, session), now);
  }

  /** Ends every session of this user issued up to now, on every replica. */
  revokeUser(username: string, now = Date.now()): Promise<void> {
    return this.record((d) => withUserCutoff(d, username, now), now);
  }

  private record(change: (d: RevocationData) => RevocationData, now: number): Promise<void> {
    this.local = normalized(change(this.local), now, this.limits);
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      void this.flush();
    });
  }

  private async tick(): Promise<void> {
    await this.reload();
    // Nobody waits for these any more, but the other replicas should learn of them.
    if (this.unwritten > 0 && !this.flushing && Date.now() - this.lastUnwrittenTry >= RETRY_UNWRITTEN_MS) {
      this.local = normalized(this.local, Date.now(), this.limits);
      if (this.unwritten > 0) void this.flush();
    }
  }

  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      do {
        const batch = this.waiting.splice(0);
        const sent = { ...this.local };
        this.lastUnwrittenTry = Date.now();
        try {
          await this.write(sent);
          // What was sent is in the cluster now; anything recorded since goes in the next write.
          for (const [k, v] of Object.entries(sent)) if (this.local[k] === v) delete this.local[k];
          this.problem = undefined;
          for (const w of batch) w.resolve();
        } catch (err) {
          this.problem = (err as Error).message;
          for (const w of batch) w.reject(err as Error);
        }
      } while (this.waiting.length > 0);
    } finally {
      this.flushing = false;
    }
  }

  private get metadata() {
    return { name: this.name, namespace: this.namespace, labels: { 'app.kubernetes.io/name': 'olm-console' } };
  }

  /** Read, merge, write at the resourceVersion read; a conflict means another replica wrote: again. */
  private async write(entries: RevocationData): Promise<void> {
    const where = `ConfigMap ${this.namespace}/${this.name}`;
    const deadline = Date.now() + this.writeDeadlineMs;
    let pause = 20;
    for (let attempt = 1; ; attempt++) {
      try {
        let cm: ConfigMap | undefined;
        try {
          cm = await this.client.get<ConfigMap>(CONFIG_MAP_TYPE, this.name, this.namespace);
        } catch (err) {
          if (!isKubeError(err, 404)) throw err;
        }
        const data = normalized(merged(cm?.data ?? {}, entries), Date.now(), this.limits);
        if (cm) await this.client.replace(CONFIG_MAP_TYPE, { ...cm, data });
        else await this.client.create(CONFIG_MAP_TYPE, { kind: 'ConfigMap', metadata: this.metadata, data });
        this.writes++;
        this.data = data;
        return;
      } catch (err) {
        if (!isKubeError(err, 409)) throw new RevocationWriteError(`cannot write ${where}: ${(err as Error).message}`);
        if (Date.now() + pause > deadline) {
          const seconds = Math.round(this.writeDeadlineMs / 1000);
          const why = `others changed it under each of ${attempt} attempts in ${seconds} s`;
          throw new RevocationWriteError(`cannot write ${where}: ${why}`);
        }
        // Jittered, growing pauses: replicas that collided do not collide again in step.
        await new Promise((r) => setTimeout(r, pause * (0.5 + Math.random())));
        pause = Math.min(pause * 2, 1_000);
      }
    }
  }
}

/** The console's namespace: `OLM_CONSOLE_NAMESPACE`, the pod's own, else `default`. */
export function consoleNamespace(env: Record<string, string | undefined> = process.env): string {
  if (env.OLM_CONSOLE_NAMESPACE) return env.OLM_CONSOLE_NAMESPACE;
  try {
    return readFileSync('/var/run/secrets/kubernetes.io/serviceaccount/namespace', 'utf8').trim() || 'default';
  } catch {
    return 'default';
  }
}
