import type { Logger } from 'pino';
import type { Ledger } from '../billing/types.js';
import type { BackgroundTask } from '../cluster/background.js';
import { isStoreUnreachable } from '../store/store-unreachable.js';
import { started } from './metered-ledger.js';

/** How often settlements the database refused are tried again. */
export const SETTLEMENT_RETRY_MS = 1_000;

/** Most settlements kept to try again; past it the oldest is left to its hold's expiry. */
const MOST_KEPT = 10_000;

/**
 * Settlements and releases the database could not take (unreachable, or a timeout, while it
 * restarted) are tried again every second until it does, so their holds are given back and their
 * generations recorded as soon as it answers, not when the holds expire. The caller still hears of
 * the failure (its answer is the 503 to repeat, or a stream ended without usage). Settling is
 * idempotent, so a settlement that did commit before its connection broke is tried again safely:
 * the second changes nothing. What is left when the instance stops (or dies) is settled by the
 * instance reaper, as every pending generation of a gone instance is.
 */
export class SettlementRetries implements BackgroundTask {
  readonly name = 'settlement-retries';
  readonly #waiting: Array<{ generationId: string; write: () => Promise<void> }> = [];
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> = Promise.resolve();

  constructor(private readonly logger: Pick<Logger, 'warn' | 'error' | 'info'>, private readonly intervalMs = SETTLEMENT_RETRY_MS) {}

  /** `ledger`, with its settlements and releases kept for another try when the database refused them. */
  wrap(ledger: Ledger): Ledger {
    return {
      ...ledger,
      settle: (hold, record) => this.#attempt(hold.generationId, () => ledger.settle(hold, record)),
      release: (hold, record) => this.#attempt(hold.generationId, () => ledger.release(hold, record)),
    };
  }

  /** How many wait for the database. */
  get waiting(): number {
    return this.#waiting.length;
  }

  async start(): Promise<void> {
    this.#timer = setInterval(() => {
      this.#round = this.#round.then(() => this.retry());
    }, this.intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#round;
    await this.retry();
    if (this.#waiting.length > 0) this.logger.warn({ settlements: this.#waiting.length }, 'settlements still waiting for the database are left to the instance reaper');
  }

  /** Tries the waiting settlements in order, stopping at the first the database still refuses. */
  async retry(): Promise<void> {
    while (this.#waiting.length > 0) {
      const next = this.#waiting[0];
      if (!next) return;
      try {
        await next.write();
        this.logger.info({ generation: next.generationId }, 'settled once the database answered again');
      } catch (error) {
        if (isStoreUnreachable(error)) return;
        this.logger.error({ err: error, generation: next.generationId }, 'a settlement tried again failed; its hold is left to expire');
      }
      this.#waiting.shift();
    }
  }

  /** The write, kept when the database refused it; a rejection handler rather than an async function: this wraps every settlement. */
  #attempt(generationId: string, write: () => Promise<void>): Promise<void> {
    return started(write).catch((error: unknown) => {
      if (isStoreUnreachable(error)) this.#keep(generationId, write);
      throw error;
    });
  }

  #keep(generationId: string, write: () => Promise<void>): void {
    if (this.#waiting.length >= MOST_KEPT) {
      const dropped = this.#waiting.shift();
      this.logger.error({ generation: dropped?.generationId }, 'too many settlements wait for the database: this one is left to its hold\'s expiry');
    }
    this.#waiting.push({ generationId, write });
  }
}
