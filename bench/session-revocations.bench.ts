// The logout record under 100,000 logouts a day across 5,000 people (issue 28, #7), and under a
// smaller console's 5,000 a day across 500, on a pure in-memory model of the record (the functions
// of lib/server/session-revocation-record.ts the console writes the ConfigMap with): its size
// against a ConfigMap's 1 MiB, that no logout is ever lost, and what folding costs.
import { newSession, type Session } from '../lib/server/session';
import {
  DEFAULT_RECORD_LIMITS,
  isRevokedBy,
  merged,
  normalized,
  recordBytes,
  revocationKeysOf,
  withSessionRevoked,
  type RecordLimits,
  type RevocationData,
  type RevocationKeys,
} from '../lib/server/session-revocation-record';
import { fmt } from './support/measure';

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const DAYS = 2;
/** One write every five simulated minutes carrying their logouts (a replica writes smaller batches more often; the
 * bound holds after every write whatever its size, and fewer writes keep the run under a minute). */
const BATCH_MS = 5 * 60_000;
const MAX_SESSION_MS = 8 * HOUR;
const limits: RecordLimits = { maxSessionMs: MAX_SESSION_MS, ...DEFAULT_RECORD_LIMITS };
const t0 = Date.parse('2025-06-02T00:00:00Z');

// A seeded generator, so that every run simulates the same days.
let seed = 28;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

interface Tracked {
  session: Session;
  keys: RevocationKeys;
}
const track = (session: Session): Tracked => ({ session, keys: revocationKeysOf(session) });
const alive = (t: Tracked, now: number) => t.session.issuedAt + MAX_SESSION_MS > now;
/** A session of this person issued at `at` (whole milliseconds, as Date.now() gives). */
const sessionOf = (user: number, at: number) => newSession(8 * 3600, 't', `user${user}`, Math.floor(at));

function simulate(people: number, perDay: number): { lost: number; maxBytes: number } {
  // Three in four logouts in working hours; a few people log out far more often than most. Each
  // logged-out session was issued up to 8 h before (pessimistic: long sessions fold sooner).
  const logouts: { at: number; user: number }[] = [];
  for (let d = 0; d < DAYS; d++) {
    for (let i = 0; i < perDay; i++) {
      const at = random() < 0.75 ? 8 * HOUR + random() * 10 * HOUR : random() * DAY;
      logouts.push({ at: t0 + d * DAY + at, user: Math.floor(people * random() ** 2) });
    }
  }
  logouts.sort((a, b) => a.at - b.at);

  // Everyone also has a session in another browser, never logged out (a new one when it ends):
  // one that a cut-off ends early is what folding costs.
  const others = Array.from({ length: people }, (_, u) => track(sessionOf(u, t0 - random() * MAX_SESSION_MS)));
  let otherSessions = people;
  let othersEnded = 0;
  let data: RevocationData = {};
  let revoked: Tracked[] = [];
  let maxBytes = 0;
  let maxEntries = 0;
  let maxLive = 0;
  let lost = 0;
  let byCutoff = 0;
  let next = 0;
  const started = performance.now();

  for (let now = t0 + BATCH_MS; now <= t0 + DAYS * DAY; now += BATCH_MS) {
    // As a replica writes: the batch's logouts recorded apart, merged into the record read, normalised.
    let batch: RevocationData = {};
    for (; next < logouts.length && logouts[next]!.at < now; next++) {
      const l = logouts[next]!;
      const s = sessionOf(l.user, l.at - random() * MAX_SESSION_MS);
      batch = withSessionRevoked(batch, s);
      revoked.push(track(s));
    }
    data = normalized(merged(data, batch), now, limits);
    maxBytes = Math.max(maxBytes, recordBytes(data));
    maxEntries = Math.max(maxEntries, Object.keys(data).length);

    if ((now - t0) % HOUR !== 0) continue;
    revoked = revoked.filter((t) => alive(t, now));
    maxLive = Math.max(maxLive, revoked.length);
    lost += revoked.filter((t) => !isRevokedBy(data, t.keys)).length;
    const held = revoked.filter((t) => data[t.keys.session] === undefined).length;
    if (now - t0 >= DAY) byCutoff = Math.max(byCutoff, held / Math.max(1, revoked.length));
    for (let u = 0; u < people; u++) {
      const ended = isRevokedBy(data, others[u]!.keys);
      if (ended) othersEnded++;
      if (ended || !alive(others[u]!, now + HOUR)) {
        others[u] = track(sessionOf(u, now));
        otherSessions++;
      }
    }
  }

  const n = (x: number) => x.toLocaleString('en');
  const kb = (x: number) => `${fmt(x / 1024)} KiB`;
  // The format before this one kept one entry (~55 bytes) per logged-out session until it expired.
  const legacy = maxLive * 55;
  const seconds = fmt((performance.now() - started) / 1000);
  const share = fmt((100 * maxBytes) / 2 ** 20);
  const end = kb(recordBytes(data));
  const folded = fmt(100 * byCutoff);
  const load = `${n(DAYS * perDay)} logouts over ${DAYS} days, ${n(people)} people`;
  console.log(`\n${load}, a write every 5 min (${seconds} s)`);
  console.log(`  record: at most ${kb(maxBytes)}, ${n(maxEntries)} entries (${share} % of 1 MiB); at the end ${end}`);
  const over = legacy > 2 ** 20 ? ', over 1 MiB' : '';
  console.log(`  one entry per logged-out session, as before: up to ${n(maxLive)} at once, ${kb(legacy)}${over}`);
  console.log(`  logouts lost: ${lost} (every logged-out session checked every simulated hour until it expires)`);
  console.log(`  held by a cut-off, not an entry of their own: at most ${folded} % of live logouts (second day)`);
  const cost = `${n(othersEnded)} of ${n(otherSessions)}`;
  console.log(`  cost of folding: ${cost} sessions in other browsers (never logged out) ended early`);
  return { lost, maxBytes };
}

const results = [simulate(5_000, 100_000), simulate(500, 5_000)];
if (results.some((r) => r.lost > 0 || r.maxBytes > 512 * 1024)) process.exit(1);
