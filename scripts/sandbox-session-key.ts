// The session key of a console on the sandbox, kept beside the sandbox's data: sessions (and the
// upgrade targets sealed with a key derived from it) survive `npm start` being run again, as
// they survive a restart of a deployed console whose key is in a Secret.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The key in `file` (64 hex digits), made and written (owner-only) when it is missing or not a key. */
export function sandboxSessionKey(file: string): string {
  const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (/^[0-9a-f]{64}$/.test(kept)) return kept;
  const key = randomBytes(32).toString('hex');
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}
