import type { Store } from './store.js';

/**
 * Items written together by one write of a SQLite store's group commit: the items added while
 * their write waits in the write batch's queue join it, and `write` runs once for all of them,
 * synchronously, with no savepoint and no promise of its own per item. Each `add` resolves once that
 * write committed; if it fails, every item in it is refused, and none of them wrote anything.
 */
export class JoinedWrites<T> {
  #waiting: T[] = [];
  /** The write the next items join: queued, not yet started. */
  #next: Promise<void> | undefined;

  constructor(
    private readonly store: Store,
    private readonly write: (items: readonly T[]) => void,
  ) {}

  add(item: T): Promise<void> {
    this.#waiting.push(item);
    this.#next ??= this.store.writeStatement(async () => {
      // from here on, items join the next write
      const items = this.#waiting;
      this.#waiting = [];
      this.#next = undefined;
      this.write(items);
    });
    return this.#next;
  }
}
