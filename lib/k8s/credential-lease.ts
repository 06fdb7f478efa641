// How long something the console keeps past one request may go on holding a person's credentials
// (today: a port-forward to a catalog's pod, lib/k8s/port-forward.ts, which opens each of its
// connections with the person's KubeConfig). The lease ends, and whatever holds the credentials
// under it drops them, at the first of: the person signing out (here: endCredentials, called by
// the sign-out routes), their session revoked on another replica (`ended`, asked every second),
// and `until` (the session's absolute and idle ends, an ID token's expiry).
//
// The holds live on globalThis under a Symbol.for key, not in a module variable: the HTTP server
// and every Next.js route bundle load their own copy of this module, and a sign-out handled by one
// copy must reach the forwards another made.

/** Whose credentials, and until when they may be used. */
export interface CredentialLease {
  /**
   * The names the lease ends under (`session:…`, `token:…`: hashes, never a secret); a forward
   * is shared only by requests whose leases carry the same names.
   */
  readonly names: readonly string[];
  /** Unix ms past which the credentials are not used. */
  readonly until: number;
  /** True once the session they came from is over in a way only the caller can tell (a logout elsewhere). */
  readonly ended?: () => boolean;
}

/** What holds credentials under a lease. */
export interface CredentialHold {
  /** A later request of the same session: its lease's `until` (a later idle end) applies from now on. */
  renew(lease: CredentialLease): void;
  /** The holder let go of the credentials by itself (closed while idle): nothing more to end. */
  release(): void;
}

interface Hold {
  lease: CredentialLease;
  drop: () => void;
}

interface Holds {
  all: Set<Hold>;
  timer?: NodeJS.Timeout;
}

/** How often leases are checked for their time and for logouts made on other replicas. */
export const LEASE_CHECK_MS = 1_000;

const KEY = Symbol.for('olm-console.credential-holds');

function holds(): Holds {
  const g = globalThis as { [KEY]?: Holds };
  return (g[KEY] ??= { all: new Set() });
}

/** True once the lease is over: nothing new may be started with its credentials. */
export function leaseLapsed(lease: CredentialLease, now = Date.now()): boolean {
  return lapsed(lease, now);
}

function lapsed(lease: CredentialLease, now: number): boolean {
  return lease.until <= now || lease.ended?.() === true;
}

function end(h: Holds, hold: Hold): void {
  h.all.delete(hold);
  if (h.all.size === 0 && h.timer) {
    clearInterval(h.timer);
    h.timer = undefined;
  }
  hold.drop();
}

/**
 * Calls `drop` (once) when the lease ends. `drop` must let go of the credentials at once and start
 * nothing new with them; it may let work already under way finish.
 */
export function holdCredentials(lease: CredentialLease, drop: () => void): CredentialHold {
  const h = holds();
  const hold: Hold = { lease, drop };
  h.all.add(hold);
  if (!h.timer) {
    h.timer = setInterval(() => endLapsedCredentials(), LEASE_CHECK_MS);
    h.timer.unref();
  }
  return {
    renew(next) {
      if (h.all.has(hold) && next.until > hold.lease.until) hold.lease = { ...next, names: hold.lease.names };
    },
    release() {
      h.all.delete(hold);
      if (h.all.size === 0 && h.timer) {
        clearInterval(h.timer);
        h.timer = undefined;
      }
    },
  };
}

/** Ends every lease carrying one of `names` (a sign-out); how many holds dropped credentials. */
export function endCredentials(names: readonly string[]): number {
  const h = holds();
  const ending = [...h.all].filter((hold) => hold.lease.names.some((n) => names.includes(n)));
  for (const hold of ending) end(h, hold);
  return ending.length;
}

/** Ends the leases whose time is up or whose session is over; run every second, and by a sign-out. */
export function endLapsedCredentials(now = Date.now()): number {
  const h = holds();
  const ending = [...h.all].filter((hold) => lapsed(hold.lease, now));
  for (const hold of ending) end(h, hold);
  return ending.length;
}

/** How many holds of credentials are live in this process (for the tests and the docs' claims). */
export function heldCredentials(): number {
  return holds().all.size;
}
