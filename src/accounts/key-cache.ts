import type { KeyContext } from './types.js';

export const KEY_CACHE_LIMIT = 10_000;

/**
 * Recently authenticated keys by hash, least recently used dropped first. Only keys that were valid
 * when read are kept; expiry is checked on every hit by the reader. The whole cache is dropped when
 * the keys changed under it (`observe` with a new key revision) or on `clear`.
 *
 * Beside it, the hash of each raw key that authenticated, so a key presented again costs no SHA-256.
 * A raw key's hash never goes stale, yet it is dropped with the cache all the same, so the raw value
 * of a key revoked since is not kept. Neither map is ever enumerated outside this class.
 */
export class KeyCache {
  readonly #entries = new Map<string, KeyContext>();
  readonly #hashes = new Map<string, string>();
  readonly #limit: number;
  #version: number | null = null;
  #epoch = 0;

  constructor(limit = KEY_CACHE_LIMIT) {
    this.#limit = limit;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** Changes on every clear: a read that started before a clear must not refill the cache. */
  get epoch(): number {
    return this.#epoch;
  }

  /** Drops everything when `version` differs from the one last observed. */
  observe(version: number): void {
    if (version !== this.#version) {
      this.clear();
      this.#version = version;
    }
  }

  get(hash: string): KeyContext | undefined {
    const entry = this.#entries.get(hash);
    if (entry) {
      this.#entries.delete(hash);
      this.#entries.set(hash, entry);
    }
    return entry;
  }

  /** Keeps `key` unless the cache was cleared since `epoch` was read. */
  set(hash: string, key: KeyContext, epoch: number): void {
    if (epoch !== this.#epoch) return;
    this.#entries.delete(hash);
    setBounded(this.#entries, hash, key, this.#limit);
  }

  /** The hash remembered for `rawKey` by `rememberHash`, if any. */
  hashOf(rawKey: string): string | undefined {
    return this.#hashes.get(rawKey);
  }

  /**
   * Remembers `hash` as the hash of `rawKey`, a key that just authenticated; the oldest remembered
   * is dropped past the limit. Skipped when the cache was cleared since `epoch` was read.
   */
  rememberHash(rawKey: string, hash: string, epoch: number): void {
    if (epoch !== this.#epoch || this.#hashes.has(rawKey)) return;
    setBounded(this.#hashes, rawKey, hash, this.#limit);
  }

  clear(): void {
    this.#entries.clear();
    this.#hashes.clear();
    this.#epoch += 1;
  }
}

/** Sets `key` in `map`, first dropping its oldest entry when the map already holds `limit`. */
function setBounded<Value>(map: Map<string, Value>, key: string, value: Value, limit: number): void {
  if (map.size >= limit) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
