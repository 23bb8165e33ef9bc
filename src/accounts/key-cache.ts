import type { KeyContext } from './types.js';

export const KEY_CACHE_LIMIT = 10_000;

/**
 * Recently authenticated keys by hash, least recently used dropped first. Only keys that were valid
 * when read are kept; expiry is checked on every hit by the reader. The whole cache is dropped when
 * the keys changed under it (`observe` with a new key revision) or on `clear`.
 */
export class KeyCache {
  readonly #entries = new Map<string, KeyContext>();
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
    if (this.#entries.size >= this.#limit) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(hash, key);
  }

  clear(): void {
    this.#entries.clear();
    this.#epoch += 1;
  }
}
