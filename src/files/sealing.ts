import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** AES-256-GCM throughout: 32-byte keys, a fresh random 96-bit IV per sealing, a 128-bit tag. */
export const KEY_BYTES = 32;
export const IV_BYTES = 12;
export const TAG_BYTES = 16;

const CIPHER = 'aes-256-gcm';

/** What one sealing produces: the IV it used, the ciphertext and the authentication tag. */
export interface SealedParts {
  iv: Buffer;
  ciphertext: Buffer;
  tag: Buffer;
}

/**
 * Bytes whose seal does not open: tampered with, sealed under another key, or presented with other
 * associated data (another blob, another position, another record). Their plaintext is never released.
 */
export class BrokenSealError extends Error {
  constructor(what: string) {
    super(`${what}: the seal does not open (tampered with, or sealed under another key)`);
    this.name = 'BrokenSealError';
  }
}

/** A fresh random key for AES-256-GCM. */
export function newKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/**
 * Seals `plaintext` under `key`, binding `context` (associated data: what the bytes are and where
 * they belong) so that they open only where they were sealed for.
 */
export function seal(key: Buffer, plaintext: Uint8Array, context: Uint8Array): SealedParts {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(context);
  const ciphertext = cipher.update(plaintext);
  const tail = cipher.final();
  return { iv, ciphertext: tail.length === 0 ? ciphertext : Buffer.concat([ciphertext, tail]), tag: cipher.getAuthTag() };
}

/** The plaintext of `parts`, checked against `context`; a BrokenSealError names `what` otherwise. */
export function unseal(key: Buffer, parts: SealedParts, context: Uint8Array, what: string): Buffer {
  if (parts.iv.length !== IV_BYTES || parts.tag.length !== TAG_BYTES) throw new BrokenSealError(what);
  const decipher = createDecipheriv(CIPHER, key, parts.iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(context);
  decipher.setAuthTag(parts.tag);
  try {
    const plaintext = decipher.update(parts.ciphertext);
    const tail = decipher.final();
    return tail.length === 0 ? plaintext : Buffer.concat([plaintext, tail]);
  } catch {
    throw new BrokenSealError(what);
  }
}

/**
 * One sealed record as a single byte string, IV then ciphertext then tag: what a chunk of a stored
 * file is, and what batch requests and replies are. `context` names the record (its id, its
 * position) and must be given again to open it.
 */
export function sealRecord(key: Buffer, plaintext: Uint8Array, context: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(CIPHER, key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  // one allocation for the whole record: GCM's final() adds no bytes, so the ciphertext is update()'s
  const ciphertext = cipher.update(plaintext);
  const tail = cipher.final();
  const sealed = Buffer.allocUnsafeSlow(IV_BYTES + ciphertext.length + tail.length + TAG_BYTES);
  iv.copy(sealed, 0);
  ciphertext.copy(sealed, IV_BYTES);
  tail.copy(sealed, IV_BYTES + ciphertext.length);
  cipher.getAuthTag().copy(sealed, sealed.length - TAG_BYTES);
  return sealed;
}

/** The plaintext of a record sealed by `sealRecord` under `key` for `context`; BrokenSealError otherwise. */
export function openRecord(key: Buffer, sealed: Buffer, context: string): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new BrokenSealError(context);
  const parts = {
    iv: sealed.subarray(0, IV_BYTES),
    ciphertext: sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES),
    tag: sealed.subarray(sealed.length - TAG_BYTES),
  };
  return unseal(key, parts, Buffer.from(context, 'utf8'), context);
}
