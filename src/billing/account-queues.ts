/** One item waiting in its account's queue, with what settles its promise. */
export interface Waiting<Item> {
  item: Item;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Writes queued per account, a batch at a time: the items of an account that arrive while one of
 * its batches is being written wait, and are then handed to `write` together (at most `most` of
 * them), which settles each one's promise. The accounts' queues drain independently.
 */
export class AccountQueues<Item> {
  readonly #waiting = new Map<string, Waiting<Item>[]>();

  constructor(
    private readonly most: number,
    private readonly write: (batch: readonly Waiting<Item>[]) => Promise<void>,
  ) {}

  /** Resolves or rejects as the write of its batch settles it. */
  add(accountId: string, item: Item): Promise<void> {
    return new Promise((resolve, reject) => {
      const queue = this.#waiting.get(accountId);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      this.#waiting.set(accountId, [{ item, resolve, reject }]);
      void this.#drain(accountId);
    });
  }

  async #drain(accountId: string): Promise<void> {
    for (let queue = this.#waiting.get(accountId); queue && queue.length > 0; queue = this.#waiting.get(accountId)) {
      const batch = queue.splice(0, this.most);
      try {
        await this.write(batch);
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    this.#waiting.delete(accountId);
  }
}
