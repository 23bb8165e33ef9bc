import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { GenerationRecord, Hold, Ledger } from '../../../src/billing/types.js';
import { SettlementRetries } from '../../../src/runtime/settlement-retries.js';

/** What pg throws while the server restarts. */
const UNREACHABLE = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

function flakyLedger(failures: unknown[]) {
  const settled: string[] = [];
  const ledger = {
    settle: async (hold: Hold) => {
      const failure = failures.shift();
      if (failure) throw failure;
      settled.push(hold.generationId);
    },
  } as unknown as Ledger;
  return { ledger: { ...ledger, release: ledger.settle }, settled };
}

const hold = (generationId: string) => ({ generationId }) as Hold;
/** The fakes above never read the record. */
const RECORD = {} as GenerationRecord;

describe('settlements the database refused', () => {
  it('are told to the caller and tried again, in order, until the database takes them', async () => {
    const { ledger, settled } = flakyLedger([UNREACHABLE, UNREACHABLE, UNREACHABLE]);
    const retries = new SettlementRetries(pino({ level: 'silent' }));
    const wrapped = retries.wrap(ledger);
    await expect(wrapped.settle(hold('g1'), RECORD)).rejects.toBe(UNREACHABLE);
    await expect(wrapped.release(hold('g2'))).rejects.toBe(UNREACHABLE);
    expect(retries.waiting).toBe(2);
    // still down: the first refuses again, and nothing after it is tried
    await retries.retry();
    expect(settled).toEqual([]);
    await retries.retry();
    expect(settled).toEqual(['g1', 'g2']);
    expect(retries.waiting).toBe(0);
  });

  it('are not kept when the failure is not the database being away', async () => {
    const { ledger } = flakyLedger([new RangeError('a charge cannot exceed its hold')]);
    const retries = new SettlementRetries(pino({ level: 'silent' }));
    await expect(retries.wrap(ledger).settle(hold('g1'), RECORD)).rejects.toThrow(RangeError);
    expect(retries.waiting).toBe(0);
  });
});
