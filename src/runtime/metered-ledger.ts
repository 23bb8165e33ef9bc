import { performance } from 'node:perf_hooks';
import type { Ledger } from '../billing/types.js';
import type { LedgerWrite } from './metrics.js';

/** Where a metered ledger reports: each write's latency, and the holds its requests keep open. */
export interface LedgerMeter {
  ledgerWrite(operation: LedgerWrite, seconds: number): void;
  holdOpened(): void;
  holdClosed(): void;
}

/**
 * The requests' ledger, timed: every hold, settlement and release reports how long it took, and a
 * hold counts as open from the moment it is taken until its settlement or release was attempted
 * (one that failed is tried again by the settlement retries, no longer by the request). Each write
 * is followed on its own promise rather than awaited in an async function of its own: these wrap
 * every request's hold and settlement, so they add as few promises as they can.
 */
export function meteredLedger(ledger: Ledger, meter: LedgerMeter): Ledger {
  /** `write`, its time reported and `then` told whether it succeeded, once it settled. */
  const timed = <T>(operation: LedgerWrite, write: () => Promise<T>, then: (succeeded: boolean) => void): Promise<T> => {
    const startedAt = performance.now();
    const done = (succeeded: boolean): void => {
      meter.ledgerWrite(operation, (performance.now() - startedAt) / 1000);
      then(succeeded);
    };
    return started(write).then(
      (value) => {
        done(true);
        return value;
      },
      (error: unknown) => {
        done(false);
        throw error;
      },
    );
  };
  const opened = (succeeded: boolean): void => {
    if (succeeded) meter.holdOpened();
  };
  const closed = (): void => meter.holdClosed();
  return {
    hold: (request) => timed('hold', () => ledger.hold(request), opened),
    settle: (hold, record) => timed('settle', () => ledger.settle(hold, record), closed),
    release: (hold, record) => timed('release', () => ledger.release(hold, record), closed),
    recordRefusal: (record) => ledger.recordRefusal(record),
    releaseExpired: (now) => ledger.releaseExpired(now),
    ...(ledger.reservedInProcess && { reservedInProcess: ledger.reservedInProcess }),
  };
}

/** The promise of `write`, a synchronous throw turned into its rejection. */
export function started<T>(write: () => Promise<T>): Promise<T> {
  try {
    return write();
  } catch (error) {
    return Promise.reject(error);
  }
}
