// The seal on an upgrade target: an HMAC only the console can make, so its approver acts only on
// targets the console itself wrote after checking that the person may approve InstallPlans — never
// on one anybody who may patch a Subscription wrote, altered, or copied from another Subscription.
// A seal alone cannot tell a live target from one cancelled or reached (the same bytes written
// back): the console's record of live targets does (upgrade-target-record.ts), by the random id
// sealed here.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { SessionKey } from './session';

/** A signed target is honoured this long after it was set, so a copy of it cannot be replayed forever. */
export const TARGET_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
const VERSION = 'v2';
// Distinct labels: a seal is never valid as a refusal mark, nor a value made for another purpose.
// v1 sealed no id, groups, catalog or channel; its seals are refused with their own reason.
const SEAL_LABEL = 'olm-console.io/upgrade-target seal v2';
const MARK_LABEL = 'olm-console.io/upgrade-target refusal reported v1';

/** The Subscription a target belongs to; the uid tells a Subscription from a later one of the same name. */
export interface SealSubject {
  namespace: string;
  name: string;
  uid: string;
}

/** What the seal vouches for: the target, who set it (and their groups) when, its id, and the
 * catalog and channel the Subscription followed then. */
export interface SealedFields {
  csv: string;
  setBy: string;
  groups?: readonly string[];
  setAt: string;
  id?: string;
  source?: string;
  sourceNamespace?: string;
  channel?: string;
}

export type SealCheck = { ok: true } | { ok: false; reason: string };

const MAX_AGE_DAYS = TARGET_MAX_AGE_MS / 86_400_000;
const UNSEALED =
  'it carries no seal: it was written on the Subscription directly, not set through the console, ' +
  'which checks that whoever sets a target may approve InstallPlans';
const MISMATCH =
  'its seal does not match this Subscription and target: it was changed after the console set it, ' +
  'copied from another Subscription, or sealed with another session key (OLM_CONSOLE_SESSION_KEY)';
const OUTDATED =
  'it was sealed by an earlier version of the console, which neither recorded a target as used once ' +
  'nor sealed its catalog and channel: set it again';

export class TargetSeal {
  private constructor(private readonly key: Buffer) {}

  /**
   * Derived from the session key (OLM_CONSOLE_SESSION_KEY, which every replica shares) rather than
   * a setting of its own; HKDF keeps the two uses apart, so a seal is no help against a cookie.
   */
  static fromSessionKey(sessionKey: SessionKey): TargetSeal {
    return new TargetSeal(Buffer.from(hkdfSync('sha256', sessionKey.key, Buffer.alloc(0), SEAL_LABEL, 32)));
  }

  private mac(parts: string[]): Buffer {
    // A JSON array is unambiguous: no choice of fields can make two different lists sign alike.
    return createHmac('sha256', this.key).update(JSON.stringify(parts)).digest();
  }

  private sealMac(s: SealSubject, t: SealedFields): Buffer {
    // Absent and empty are one value: the seal is over what the approver compares.
    const text = (v: string | undefined) => v ?? '';
    const groups = JSON.stringify(t.groups ?? []);
    const { csv, setBy, setAt } = t;
    const rest = [t.id, t.source, t.sourceNamespace, t.channel].map(text);
    return this.mac([SEAL_LABEL, s.namespace, s.name, s.uid, csv, setBy, groups, setAt, ...rest]);
  }

  sign(subject: SealSubject, t: SealedFields): string {
    if (!subject.uid) throw new Error(`Subscription ${subject.namespace}/${subject.name} has no uid to seal to`);
    if (!t.id) throw new Error(`a target on ${subject.namespace}/${subject.name} needs an id to be recorded as live`);
    return `${VERSION}.${this.sealMac(subject, t).toString('base64url')}`;
  }

  /** Whether `seal` is this console's seal of exactly this target on this Subscription, still in date. */
  check(subject: SealSubject, t: SealedFields, seal: string | undefined, now = Date.now()): SealCheck {
    if (!seal) return { ok: false, reason: UNSEALED };
    if (seal.startsWith('v1.')) return { ok: false, reason: OUTDATED };
    // Compared as written, so no other spelling of the same bytes (base64 is lenient) passes either.
    const given = Buffer.from(seal);
    const want = Buffer.from(subject.uid ? `${VERSION}.${this.sealMac(subject, t).toString('base64url')}` : '');
    const same = want.length > 0 && given.length === want.length && timingSafeEqual(given, want);
    if (!same) return { ok: false, reason: MISMATCH };
    const at = Date.parse(t.setAt);
    if (!Number.isFinite(at) || now - at > TARGET_MAX_AGE_MS) {
      const when = t.setAt || 'no time';
      return { ok: false, reason: `it was set at ${when}, and a target lasts ${MAX_AGE_DAYS} days: set it again` };
    }
    return { ok: true };
  }

  /**
   * A mark that the refusal of this exact annotation value on this Subscription has been reported.
   * Sealed too, so that whoever writes a target cannot pre-write the mark and silence the report.
   */
  refusalMark(s: SealSubject, annotation: string): string {
    const mac = this.mac([MARK_LABEL, s.namespace, s.name, s.uid, annotation]);
    return `${VERSION}.${mac.toString('base64url').slice(0, 32)}`;
  }
}
