// A small JSON value sealed with the session key (AES-256-GCM), for a cookie the browser carries
// and can neither read nor alter: the sign-in in progress (oidc/state-cookie.ts) and a person's
// token for another cluster (fleet/cluster-tokens.ts). A purpose string is bound into the seal, so
// a value sealed for one cookie is refused as another.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SessionKey } from './session';

export function seal(value: unknown, purpose: string, key: SessionKey): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv);
  cipher.setAAD(Buffer.from(purpose));
  const body = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((b) => b.toString('base64url')).join('.');
}

export function unseal<T>(text: string | undefined, purpose: string, key: SessionKey): T | undefined {
  const [iv, body, tag] = (text ?? '').split('.');
  if (!iv || !body || !tag) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(purpose));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const text = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
