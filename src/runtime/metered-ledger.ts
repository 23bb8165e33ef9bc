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
 * (one that failed is tried again by the settlement retries, no longer by the request).
 */
export function meteredLedger(ledger: Ledger, meter: LedgerMeter): Ledger {
  const timed = async <T>(operation: LedgerWrite, write: () => Promise<T>): Promise<T> => {
    const startedAt = performance.now();
    try {
      return await write();
    } finally {
      meter.ledgerWrite(operation, (performance.now() - startedAt) / 1000);
    }
  };
  const closing = async (operation: LedgerWrite, write: () => Promise<void>): Promise<void> => {
    try {
      await timed(operation, write);
    } finally {
      meter.holdClosed();
    }
  };
  return {
    hold: async (request) => {
      const hold = await timed('hold', () => ledger.hold(request));
      meter.holdOpened();
      return hold;
    },
    settle: (hold, record) => closing('settle', () => ledger.settle(hold, record)),
    release: (hold, record) => closing('release', () => ledger.release(hold, record)),
    recordRefusal: (record) => ledger.recordRefusal(record),
    releaseExpired: (now) => ledger.releaseExpired(now),
    ...(ledger.reservedInProcess && { reservedInProcess: ledger.reservedInProcess }),
  };
}
