import type { CatalogueSource } from './source.js';
import type { Catalogue } from './types.js';

export type CatalogueListener = (next: Catalogue, previous: Catalogue) => void;

/**
 * Holds the current catalogue snapshot. A reload swaps the whole snapshot in one assignment:
 * a request keeps the snapshot it took with `current()` until it ends, so nothing in flight
 * sees half of an old file and half of a new one.
 */
export class CatalogueStore implements CatalogueSource {
  #current: Catalogue;
  readonly #listeners = new Set<CatalogueListener>();

  constructor(initial: Catalogue) {
    this.#current = initial;
  }

  current(): Catalogue {
    return this.#current;
  }

  /** Makes `next` the current snapshot and tells every listener (caches keyed on the old one). */
  replace(next: Catalogue): void {
    const previous = this.#current;
    this.#current = next;
    for (const listener of this.#listeners) listener(next, previous);
  }

  /** Calls `listener` after every swap; returns the function that stops it. */
  onChange(listener: CatalogueListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }
}
