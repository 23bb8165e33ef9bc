import { describe, expect, it } from 'vitest';
import type { GenerationRecord, Hold, HoldRequest, Ledger } from '../../../src/billing/types.js';
import { GatewayError } from '../../../src/core/errors.js';
import { meteredLedger, type LedgerMeter } from '../../../src/runtime/metered-ledger.js';

const RECORD = {} as GenerationRecord;
const REQUEST: HoldRequest = { generationId: 'gen-1', accountId: 'acct-1', workspaceId: 'ws-1', keyId: 'key-1', amount: 10n, pending: RECORD };

/** A ledger whose writes succeed, or fail when told to. */
class ScriptedLedger implements Ledger {
  refuseHold = false;
  failWrites = false;

  async hold(request: HoldRequest): Promise<Hold> {
    if (this.refuseHold) throw new GatewayError('payment_required', 'Insufficient credits');
    return { ...request, id: 'hold-1', heldAt: new Date(), expiresAt: new Date() };
  }
  async settle(): Promise<void> {
    if (this.failWrites) throw new Error('database unreachable');
  }
  async release(): Promise<void> {
    if (this.failWrites) throw new Error('database unreachable');
  }
  async recordRefusal(): Promise<void> {}
  async releaseExpired(): Promise<number> {
    return 0;
  }
}

class CountingMeter implements LedgerMeter {
  open = 0;
  readonly writes: string[] = [];
  ledgerWrite(operation: string, seconds: number): void {
    expect(seconds).toBeGreaterThanOrEqual(0);
    this.writes.push(operation);
  }
  holdOpened(): void {
    this.open += 1;
  }
  holdClosed(): void {
    this.open -= 1;
  }
}

function metered(): { ledger: ScriptedLedger; meter: CountingMeter; wrapped: Ledger } {
  const ledger = new ScriptedLedger();
  const meter = new CountingMeter();
  return { ledger, meter, wrapped: meteredLedger(ledger, meter) };
}

describe('the metered ledger', () => {
  it('times every hold, settlement and release, and counts a hold open until it is settled or released', async () => {
    const { meter, wrapped } = metered();
    const first = await wrapped.hold(REQUEST);
    const second = await wrapped.hold(REQUEST);
    expect(meter.open).toBe(2);
    await wrapped.settle(first, RECORD);
    await wrapped.release(second);
    expect(meter.open).toBe(0);
    expect(meter.writes).toEqual(['hold', 'hold', 'settle', 'release']);
  });

  it('a refused hold is timed but never counted open', async () => {
    const { ledger, meter, wrapped } = metered();
    ledger.refuseHold = true;
    await expect(wrapped.hold(REQUEST)).rejects.toThrow(GatewayError);
    expect(meter.open).toBe(0);
    expect(meter.writes).toEqual(['hold']);
  });

  it('a settlement that fails still closes the hold as far as the request goes (the reconciler takes it over) and rethrows', async () => {
    const { ledger, meter, wrapped } = metered();
    const hold = await wrapped.hold(REQUEST);
    ledger.failWrites = true;
    await expect(wrapped.settle(hold, RECORD)).rejects.toThrow('database unreachable');
    expect(meter.open).toBe(0);
  });
});
