import type { GenerationRecord, Hold, Ledger } from '../../src/billing/types.js';
import type { Harness } from './harness.js';

/** One time the pipeline asked the ledger to close a hold. */
export interface LedgerCall {
  method: 'settle' | 'release';
  hold: Hold;
  record: GenerationRecord | undefined;
  /** The ledger was down: the call threw and wrote nothing. */
  failed: boolean;
}

export interface LedgerTap {
  /** Every settle and release, in order. */
  readonly calls: LedgerCall[];
  /** While true, settle and release throw as an unreachable database would. */
  down: boolean;
  /** The calls closing the hold of one generation. */
  of(generationId: string | null): LedgerCall[];
  /** Resolves once `count` calls were made. */
  untilCalls(count: number): Promise<void>;
}

/**
 * Wraps the running gateway's ledger: every settle and release is kept with its record and passed
 * on, or, while `down`, refused with the error an unreachable database gives.
 */
export function tapLedger(harness: Harness): LedgerTap {
  const ledger: Ledger = harness.gateway.services.ledger;
  const settle = ledger.settle.bind(ledger);
  const release = ledger.release.bind(ledger);
  const calls: LedgerCall[] = [];
  const tap: LedgerTap = {
    calls,
    down: false,
    of: (generationId) => calls.filter((call) => call.hold.generationId === generationId),
    async untilCalls(count) {
      for (let poll = 0; poll < 800 && calls.length < count; poll += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    },
  };
  const closing = (method: LedgerCall['method'], pass: (hold: Hold, record?: GenerationRecord) => Promise<void>) =>
    (hold: Hold, record?: GenerationRecord): Promise<void> => {
      calls.push({ method, hold, record, failed: tap.down });
      return tap.down ? Promise.reject(new Error('database unreachable')) : pass(hold, record);
    };
  ledger.settle = closing('settle', (hold, record) => settle(hold, record as GenerationRecord));
  ledger.release = closing('release', release);
  return tap;
}
