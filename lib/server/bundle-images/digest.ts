// Content addressing: a manifest or blob is taken only when its sha256 is the digest that named it.
// A registry (or whatever answers in its name) that sends other bytes is refused, so what is read
// and cached under a digest is that digest's content.
import { createHash } from 'node:crypto';

export const sha256Digest = (bytes: Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`;

export class DigestMismatch extends Error {}

/** Throws unless `bytes` hash to `digest`; `what` names them in the reason. */
export function checkDigest(what: string, bytes: Uint8Array, digest: string): void {
  const actual = sha256Digest(bytes);
  if (actual !== digest)
    throw new DigestMismatch(`${what} does not match its digest: expected ${digest}, the registry sent ${actual}`);
}
