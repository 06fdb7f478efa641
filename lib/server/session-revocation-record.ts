// The logout record's format and rules, as pure functions over the ConfigMap's `data`: what a
// logout adds, what is pruned, and how the record stays bounded by the number of people rather
// than the number of logouts. lib/server/session-revocation.ts reads and writes it in the cluster.
//
//   s.<24 hex: the session id's hash>  →  "<issuedAt, ms, base 36>.<user id>"   one logged-out session
//   u.<user id: 16 base64url chars>    →  "<cut-off, ms, base 36>"              that person's sessions
//                                                                              issued at or before it
// A person keeps at most `perUser` session entries and the record at most `sessions`; beyond
// that the oldest entries are folded into their person's cut-off at that session's issue time.
// Folding the oldest first ends the fewest other sessions: only that person's sessions issued
// earlier still, which are the nearest their end. So a logout is exact for as long as the
// record has room, and never lost: at worst it also ends that person's older sessions.
// Entries from before this format (`s.`/`u.` with 40 hex digits, plain millisecond values) are
// still honoured until they expire, and never written.
import { createHash } from 'node:crypto';
import type { Session } from './session';

export type RevocationData = Record<string, string>;

export interface RecordLimits {
  /** The longest a session lives (ms): entries about sessions older than that are dropped. */
  maxSessionMs: number;
  /** Session entries one person may hold before their oldest are folded into their cut-off. */
  perUser: number;
  /** Session entries the whole record may hold before the oldest are folded. */
  sessions: number;
}

export const DEFAULT_RECORD_LIMITS: Omit<RecordLimits, 'maxSessionMs'> = { perUser: 8, sessions: 2_000 };

const sha = (text: string) => createHash('sha256').update(text);
export const sessionKeyOf = (sid: string) => `s.${sha(sid).digest('hex').slice(0, 24)}`;
export const userIdOf = (username: string) => sha(`user:${username}`).digest('base64url').slice(0, 16);
const userKeyOf = (userId: string) => `u.${userId}`;
/** The keys of the format before this one (40 hex digits; values in plain milliseconds). */
const legacySessionKeyOf = (sid: string) => `s.${sha(sid).digest('hex').slice(0, 40)}`;
const legacyUserKeyOf = (username: string) => `u.${sha(`user:${username}`).digest('hex').slice(0, 40)}`;

const SESSION_KEY = /^s\.[0-9a-f]{24}$/;
const USER_KEY = /^u\.[A-Za-z0-9_-]{16}$/;
const LEGACY_KEY = /^[su]\.[0-9a-f]{40}$/;

// Rounded up: a cut-off taken from a time must still cover a session issued within its millisecond.
const time36 = (ms: number) => Math.ceil(ms).toString(36);
function parseTime36(text: string | undefined): number | undefined {
  if (!text || !/^[0-9a-z]{1,11}$/.test(text)) return undefined;
  return parseInt(text, 36);
}

interface SessionEntry {
  key: string;
  issuedAt: number;
  userId: string;
}

function parseSessionEntry(key: string, value: string): SessionEntry | undefined {
  const dot = value.indexOf('.');
  const issuedAt = parseTime36(value.slice(0, dot));
  const userId = value.slice(dot + 1);
  if (dot < 0 || issuedAt === undefined || !USER_KEY.test(`u.${userId}`)) return undefined;
  return { key, issuedAt, userId };
}

/** What a session must be checked against, worked out once (a stream checks its session every second). */
export interface RevocationKeys {
  session: string;
  legacySession: string;
  user?: string;
  legacyUser?: string;
  issuedAt: number;
}

export function revocationKeysOf(session: Session): RevocationKeys {
  const { sid, username, issuedAt } = session;
  const user = username ? { user: userKeyOf(userIdOf(username)), legacyUser: legacyUserKeyOf(username) } : {};
  return { session: sessionKeyOf(sid), legacySession: legacySessionKeyOf(sid), ...user, issuedAt };
}

export function isRevokedBy(data: RevocationData, keys: RevocationKeys): boolean {
  if (data[keys.session] !== undefined || data[keys.legacySession] !== undefined) return true;
  if (!keys.user) return false;
  const cutoff = parseTime36(data[keys.user]);
  if (cutoff !== undefined && keys.issuedAt <= cutoff) return true;
  const legacy = Number(data[keys.legacyUser!]);
  return Number.isFinite(legacy) && keys.issuedAt <= legacy;
}

/** The record with this one session logged out (the person's own name keeps it foldable). */
export function withSessionRevoked(data: RevocationData, session: Session): RevocationData {
  const userId = userIdOf(session.username ?? `session:${session.sid}`);
  return { ...data, [sessionKeyOf(session.sid)]: `${time36(session.issuedAt)}.${userId}` };
}

/** The record with every session of this person issued up to `at` logged out. */
export function withUserCutoff(data: RevocationData, username: string, at: number): RevocationData {
  return raiseCutoff({ ...data }, userIdOf(username), at);
}

function raiseCutoff(data: RevocationData, userId: string, at: number): RevocationData {
  const key = userKeyOf(userId);
  const current = parseTime36(data[key]);
  if (current === undefined || current < at) data[key] = time36(at);
  return data;
}

/** Both records' revocations in one: every session either ends stays ended. */
export function merged(a: RevocationData, b: RevocationData): RevocationData {
  const out: RevocationData = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const cutoff = USER_KEY.test(k) ? parseTime36(v) : undefined;
    if (cutoff !== undefined) raiseCutoff(out, k.slice(2), cutoff);
    else out[k] = v;
  }
  return out;
}

/**
 * The record pruned and bounded: entries that can no longer matter are dropped (sessions past
 * the longest lifetime, cut-offs older than any live session, session entries a cut-off already
 * covers, anything unreadable), then the oldest session entries are folded into cut-offs until
 * every person has at most `perUser` and the record at most `sessions`.
 */
export function normalized(data: RevocationData, now: number, limits: RecordLimits): RevocationData {
  const out: RevocationData = {};
  const sessions: SessionEntry[] = [];
  for (const [k, v] of Object.entries(data)) {
    if (SESSION_KEY.test(k)) {
      const e = parseSessionEntry(k, v);
      if (e && e.issuedAt + limits.maxSessionMs > now) sessions.push(e);
    } else if (USER_KEY.test(k)) {
      const cutoff = parseTime36(v);
      if (cutoff !== undefined && cutoff + limits.maxSessionMs > now) out[k] = v;
    } else if (LEGACY_KEY.test(k)) {
      // Legacy session values were the session's expiry, cut-offs the moment of the cut.
      const n = Number(v);
      if (Number.isFinite(n) && (k.startsWith('s.') ? n > now : n + limits.maxSessionMs > now)) out[k] = v;
    }
  }
  const cutoffOf = (userId: string) => parseTime36(out[userKeyOf(userId)]) ?? -Infinity;
  const fold = (e: SessionEntry) => raiseCutoff(out, e.userId, e.issuedAt);

  // Oldest first, so that whatever is folded is a person's oldest.
  sessions.sort((a, b) => a.issuedAt - b.issuedAt || (a.key < b.key ? -1 : 1));
  const perUser = new Map<string, number>();
  for (const e of sessions) perUser.set(e.userId, (perUser.get(e.userId) ?? 0) + 1);
  const kept: SessionEntry[] = [];
  for (const e of sessions) {
    const left = perUser.get(e.userId)!;
    perUser.set(e.userId, left - 1);
    if (left > limits.perUser) fold(e);
    else kept.push(e);
  }
  const uncovered = kept.filter((e) => e.issuedAt > cutoffOf(e.userId));
  let excess = uncovered.length - limits.sessions;
  for (const e of uncovered) {
    if (excess > 0) {
      excess--;
      fold(e);
    } else if (e.issuedAt > cutoffOf(e.userId)) {
      // (A fold just above may have covered an entry issued in the same millisecond.)
      out[e.key] = `${time36(e.issuedAt)}.${e.userId}`;
    }
  }
  return out;
}

/** The size the API server counts against a ConfigMap's 1 MiB: the keys' and values' bytes. */
export function recordBytes(data: RevocationData): number {
  let n = 0;
  for (const [k, v] of Object.entries(data)) n += Buffer.byteLength(k) + Buffer.byteLength(v);
  return n;
}
