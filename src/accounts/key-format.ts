import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'sk-svc-v1-';
export const LEGACY_KEY_PREFIX = 'sk-legacy-v1-';

const KEY_SHAPE = /^(sk-svc-v1-|sk-legacy-v1-)[0-9a-f]{64}$/;

/** A new key: the current prefix and 64 lowercase hex characters (32 random bytes). */
export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('hex');
}

/** True for a well-formed current or legacy key; anything else never reaches the database. */
export function isWellFormedKey(raw: string): boolean {
  return KEY_SHAPE.test(raw);
}

/** What is stored instead of the key: SHA-256 of the whole raw value, lowercase hex. */
export function hashKey(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

/** Masked form shown back to people: `sk-svc-v1-abc...f09`. */
export function labelKey(raw: string): string {
  const match = KEY_SHAPE.exec(raw);
  if (!match) throw new RangeError('not a well-formed key');
  const prefix = match[1] ?? KEY_PREFIX;
  const hex = raw.slice(prefix.length);
  return `${prefix}${hex.slice(0, 3)}...${hex.slice(-3)}`;
}
