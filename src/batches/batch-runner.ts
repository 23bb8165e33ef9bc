import type { BackgroundTask } from '../cluster/background.js';
import { accountsToTake, claimLease, oldestActive, releaseLease } from './batch-rows.js';
import { BatchRun, type BatchRunServices } from './batch-run.js';

export interface BatchRunnerOptions {
  /** How long a lease lasts without renewal: another instance takes the account over after it. */
  leaseMs?: number;
  /** How often the runner looks for accounts to take and renews its leases. */
  pollMs?: number;
  /** Told when this instance takes over the batches of an account whose holder's lease ran out. */
  onTakeover?: (accountId: string) => void;
}

/** A worker on one account whose lease this instance holds. */
interface AccountWorker {
  /** Aborted when the lease is lost or the instance stops: dispatch ends, what is in flight finishes. */
  stop: AbortController;
  done: Promise<void>;
}

/** Accounts taken per round, at most. */
const ACCOUNTS_PER_ROUND = 16;

/** The pause before a batch that had to wait, or failed, is run again. */
const RETRY_MS = 2_000;

function pause(ms: number, stopped: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      stopped.removeEventListener('abort', done);
      resolve();
    }
    stopped.addEventListener('abort', done, { once: true });
  });
}

/**
 * The batch runner, a background task of every instance. Each round it renews the leases it holds
 * and takes the accounts whose batches wait or run with no live lease (one conditional write decides
 * between instances racing for one); for each account it holds, one worker runs the account's
 * batches oldest first, one at a time, until none is left, then lets the lease go. An instance that
 * dies stops renewing: once its leases lapse another instance takes its accounts over, and the
 * recorded request states tell it what was sent (see BatchRun).
 */
export class BatchRunner implements BackgroundTask {
  readonly name = 'batch runner';
  readonly #services: BatchRunServices;
  readonly #holder: string;
  readonly #leaseMs: number;
  readonly #pollMs: number;
  readonly #onTakeover: (accountId: string) => void;
  readonly #workers = new Map<string, AccountWorker>();
  #timer: NodeJS.Timeout | undefined;
  #round: Promise<void> = Promise.resolve();
  #stopping = false;

  constructor(services: BatchRunServices, options: BatchRunnerOptions) {
    this.#services = services;
    this.#holder = services.holder;
    this.#leaseMs = options.leaseMs ?? 30_000;
    this.#pollMs = options.pollMs ?? 1_000;
    this.#onTakeover = options.onTakeover ?? (() => undefined);
  }

  async start(): Promise<void> {
    this.#timer = setInterval(() => this.wake(), this.#pollMs);
    this.#timer.unref();
    this.wake();
  }

  /** Runs a round now (a batch was submitted or cancelled here), after the one in progress. */
  wake(): void {
    if (this.#stopping) return;
    this.#round = this.#round.then(() => this.#takeAndRenew()).catch((error: unknown) => {
      this.#services.logger.error({ err: error }, 'batch runner round failed');
    });
  }

  /** Stops dispatching, lets what is in flight finish (or be cut by the drain), and lets every lease go. Idempotent. */
  async stop(): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#timer);
    await this.#round;
    for (const worker of this.#workers.values()) worker.stop.abort();
    await Promise.all([...this.#workers.values()].map((worker) => worker.done));
  }

  async #takeAndRenew(): Promise<void> {
    const { store, now } = this.#services;
    for (const [accountId, worker] of this.#workers) {
      if (!(await claimLease(store, accountId, this.#holder, now(), now() + this.#leaseMs))) worker.stop.abort();
    }
    for (const accountId of await accountsToTake(store.db, now(), ACCOUNTS_PER_ROUND)) {
      if (this.#stopping || this.#workers.has(accountId)) continue;
      const claim = await claimLease(store, accountId, this.#holder, now(), now() + this.#leaseMs);
      if (claim === 'taken over') this.#onTakeover(accountId);
      if (claim) this.#startWorker(accountId);
    }
  }

  #startWorker(accountId: string): void {
    const stop = new AbortController();
    const done = this.#work(accountId, stop.signal)
      .catch((error: unknown) => this.#services.logger.error({ err: error, account: accountId }, 'batch worker stopped'))
      .finally(async () => {
        this.#workers.delete(accountId);
        await releaseLease(this.#services.store, accountId, this.#holder).catch(() => undefined);
      });
    this.#workers.set(accountId, { stop, done });
  }

  /**
   * Runs the account's batches, oldest first, until none waits or runs, or the worker is stopped. A
   * batch that must wait (requests of a dead instance not yet settled), or whose run failed (the key
   * store unreachable, the database briefly gone), is tried again after a pause, the lease kept.
   */
  async #work(accountId: string, stopped: AbortSignal): Promise<void> {
    while (!stopped.aborted) {
      const batch = await oldestActive(this.#services.store.db, accountId);
      if (!batch) return;
      let ended: 'ended' | 'waiting';
      try {
        ended = await new BatchRun(this.#services, batch, stopped).run();
      } catch (error) {
        this.#services.logger.error({ err: error, batch: batch.id }, 'batch run failed; retrying');
        ended = 'waiting';
      }
      if (ended === 'waiting') await pause(RETRY_MS, stopped);
    }
  }
}
