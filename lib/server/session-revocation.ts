// Logout that holds on every replica: a session cookie is sealed, so ending it early needs a
// record every replica reads. The record lives in the cluster the console already talks to (a
// ConfigMap in the console's namespace, written with the console's own identity), so replicas
// need no shared server of their own; each re-reads it every two seconds. It holds hashes only:
// a session id's hash until that session would have expired anyway, and, for "log out
// everywhere", a username's hash with the moment before which its sessions are over.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { KubeClient } from '../k8s/client';
import { isKubeError } from '../k8s/errors';
import type { Session } from './session';

export const REVOCATIONS_CONFIGMAP = 'olm-console-session-revocations';
const CONFIGMAP = { group: '', version: 'v1', plural: 'configmaps', namespaced: true, kind: 'ConfigMap' };
export const POLL_MS = 2_000;

/** Data keys → numbers (ms): `s.<hash>` until when a session id stays revoked, `u.<hash>` a user's cut-off. */
export type RevocationData = Record<string, string>;

const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 40);
export const sessionKeyOf = (sid: string) => `s.${hash(sid)}`;
export const userKeyOf = (username: string) => `u.${hash(`user:${username}`)}`;

export function isRevokedBy(data: RevocationData, session: Session): boolean {
  if (data[sessionKeyOf(session.sid)] !== undefined) return true;
  if (!session.username) return false;
  const cutoff = Number(data[userKeyOf(session.username)]);
  return Number.isFinite(cutoff) && session.issuedAt <= cutoff;
}

/** Drops entries that can no longer matter: revoked sessions past their expiry, cut-offs older than any session. */
export function pruned(data: RevocationData, now: number, maxSessionMs: number): RevocationData {
  const out: RevocationData = {};
  for (const [k, v] of Object.entries(data)) {
    const n = Number(v);
    if (k.startsWith('s.') && n > now) out[k] = v;
    if (k.startsWith('u.') && n > now - maxSessionMs) out[k] = v;
  }
  return out;
}

interface ConfigMap {
  metadata?: { name?: string; namespace?: string; resourceVersion?: string };
  data?: Record<string, string>;
}

export class SessionRevocations {
  private data: RevocationData = {};
  /** Revocations this replica made and could not write to the cluster (kept locally, said in readiness). */
  private readonly local: RevocationData = {};
  private timer?: NodeJS.Timeout;
  private loaded = false;
  /** Why the cluster record cannot be read or written, when it cannot. */
  problem?: string;

  constructor(
    private readonly client: KubeClient,
    readonly namespace: string,
    private readonly maxSessionMs: number,
    readonly name = REVOCATIONS_CONFIGMAP,
  ) {}

  start(): void {
    if (this.timer) return;
    void this.reload();
    this.timer = setInterval(() => void this.reload(), POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  isRevoked(session: Session): boolean {
    return isRevokedBy(this.data, session) || isRevokedBy(this.local, session);
  }

  get ready(): boolean {
    return this.loaded;
  }

  async reload(): Promise<void> {
    try {
      const cm = await this.client.get<ConfigMap>(CONFIGMAP, this.name, this.namespace);
      this.data = cm.data ?? {};
      this.problem = undefined;
    } catch (err) {
      if (isKubeError(err, 404)) {
        this.data = {};
        this.problem = undefined;
      } else {
        this.problem = `cannot read ConfigMap ${this.namespace}/${this.name}: ${(err as Error).message}`;
      }
    }
    this.loaded = true;
  }

  revokeSession(session: Session, now = Date.now()): Promise<void> {
    return this.write({ [sessionKeyOf(session.sid)]: String(session.expiresAt * 1000) }, now);
  }

  /** Ends every session of this user issued up to now, on every replica. */
  revokeUser(username: string, now = Date.now()): Promise<void> {
    return this.write({ [userKeyOf(username)]: String(now) }, now);
  }

  private async write(entries: RevocationData, now: number): Promise<void> {
    Object.assign(this.local, entries);
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        let cm: ConfigMap | undefined;
        try {
          cm = await this.client.get<ConfigMap>(CONFIGMAP, this.name, this.namespace);
        } catch (err) {
          if (!isKubeError(err, 404)) throw err;
        }
        const data = pruned({ ...(cm?.data ?? {}), ...entries }, now, this.maxSessionMs);
        if (cm) await this.client.replace(CONFIGMAP, { ...cm, data });
        else await this.client.create(CONFIGMAP, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: this.name, namespace: this.namespace, labels: { 'app.kubernetes.io/name': 'olm-console' } }, data });
        this.data = data;
        for (const k of Object.keys(entries)) delete this.local[k];
        this.problem = undefined;
        return;
      } catch (err) {
        if (isKubeError(err, 409)) continue;
        this.problem = `cannot write ConfigMap ${this.namespace}/${this.name} (logouts hold on this replica only): ${(err as Error).message}`;
        return;
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
