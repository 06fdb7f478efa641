// The seal on a disabled-catalog record (lib/olm/catalog/disabled-catalogs.ts): an HMAC only the
// console can make, written when a person with the rights to delete the CatalogSource disables it.
// Enable makes a CatalogSource in a global catalog namespace from the record, and whoever may write
// ConfigMaps there (a namespace's `edit` role does; it cannot create CatalogSources) could otherwise
// write a record of their own: a catalog image of their choice, "disabled by" someone else, made by
// whoever clicks Enable next. With the seal, Enable acts only on what the console recorded itself.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { sealedContent, type DisabledCatalog } from '../olm/catalog/disabled-catalogs';
import type { SessionKey } from './session';

const VERSION = 'v1';
// Its own label: a seal made here is never valid as an upgrade target's, a cookie's, or the reverse.
const LABEL = 'olm-console.io/disabled-catalog seal v1';

export type DisabledSealCheck = { ok: true } | { ok: false; reason: string };

const UNSEALED =
  'carries no seal of this console: it was written into the ConfigMap directly, not by Disable, ' +
  'so Enable will not make a CatalogSource from it';
const MISMATCH =
  'has a seal that does not match it: it was changed after the console recorded it, or sealed with ' +
  'another session key (OLM_CONSOLE_SESSION_KEY), so Enable will not make a CatalogSource from it';

export class DisabledCatalogSeal {
  private constructor(private readonly key: Buffer) {}

  /** Derived from the session key every replica shares; HKDF keeps this use apart from the others. */
  static fromSessionKey(sessionKey: SessionKey): DisabledCatalogSeal {
    return new DisabledCatalogSeal(Buffer.from(hkdfSync('sha256', sessionKey.key, Buffer.alloc(0), LABEL, 32)));
  }

  private seal(c: DisabledCatalog): string {
    const mac = createHmac('sha256', this.key).update(LABEL).update('\0').update(sealedContent(c)).digest();
    return `${VERSION}.${mac.toString('base64url')}`;
  }

  sign(c: DisabledCatalog): string {
    return this.seal(c);
  }

  /** Whether `seal` is this console's seal of exactly this record, at this place in this namespace. */
  check(c: DisabledCatalog, seal: string | undefined): DisabledSealCheck {
    if (!seal) return { ok: false, reason: UNSEALED };
    // Compared as written: no other spelling of the same bytes (base64 is lenient) passes.
    const given = Buffer.from(seal);
    const want = Buffer.from(this.seal(c));
    if (given.length !== want.length || !timingSafeEqual(given, want)) return { ok: false, reason: MISMATCH };
    return { ok: true };
  }
}
