import { describe, expect, it } from 'vitest';
import type { KeyContext } from '../../../src/accounts/types.js';
import { capCharge, usageWithinCeiling } from '../../../src/billing/charge-cap.js';
import { generationRecord, type GenerationOwner } from '../../../src/billing/generation-record.js';
import { parseUsd, toUsdNumber, type Units } from '../../../src/billing/money.js';
import { holdAmount } from '../../../src/billing/pricing.js';
import { priceCharacters, settleGeneration, type GenerationOutcome, type Overrun } from '../../../src/billing/settlement.js';
import type { GenerationRecord, Hold, HoldRequest, Ledger } from '../../../src/billing/types.js';
import type { CoreUsage } from '../../../src/core/events.js';
import type { PlannedAttempt } from '../../../src/core/plan.js';
import { planHoldAmount } from '../../../src/core/planner/planner.js';
import type { CoreRequest } from '../../../src/core/request.js';
import { requestFacts } from '../../../src/core/request-facts.js';
import { chatCatalogue, endpoint } from '../../fixtures/planner/catalogue-yaml.js';
import { chatRequest, planOf } from '../../fixtures/planner/planning.js';

const PROMPT = parseUsd('0.000001');
const COMPLETION = parseUsd('0.000002');
const NOW = new Date('2025-07-01T12:00:00Z');

const KEY: KeyContext = {
  keyId: 'key-1', hash: 'hash-1', accountId: 'acct-1', workspaceId: 'ws-1', name: 'test', label: 'sk-…', management: false, scopeLimits: {}, expiresAt: null,
};

/** A ledger that keeps what it was asked to settle or release. */
class RecordingLedger implements Ledger {
  readonly settled: GenerationRecord[] = [];
  readonly released: (GenerationRecord | undefined)[] = [];

  hold(request: HoldRequest): Promise<Hold> {
    return Promise.resolve({ ...request, id: 'hold-1', heldAt: new Date(), expiresAt: new Date(NOW.getTime() + 60_000) });
  }
  async settle(_hold: Hold, record: GenerationRecord): Promise<void> {
    this.settled.push(record);
  }
  async release(_hold: Hold, record?: GenerationRecord): Promise<void> {
    this.released.push(record);
  }
  recordRefusal(): Promise<void> {
    return Promise.resolve();
  }
  releaseExpired(): Promise<number> {
    return Promise.resolve(0);
  }
}

interface Held {
  request: CoreRequest;
  attempt: PlannedAttempt;
  hold: Hold;
  /** The prompt estimate of one call, as the hold counted it. */
  estimate: number;
}

/** Plans a chat request with `max_tokens` over the default endpoint and holds for `calls` calls, as prepare does. */
/** The pending generation a hold is admitted with. */
function pendingRecord(generationId: string, owner: GenerationOwner): GenerationRecord {
  return generationRecord({
    generationId, owner, asked: { model: 'acme/chat', streamed: false, attribution: {}, metadata: null },
    startedAt: 0, estimatedPromptTokens: 0, pending: true, cost: 0n, costLines: [],
  });
}

async function heldChat(ledger: Ledger, maxTokens: number, calls = 1): Promise<Held> {
  const request = chatRequest({ maxTokens });
  const plan = planOf(chatCatalogue(endpoint('alpha')), request);
  const attempt = plan.attempts[0];
  if (!attempt) throw new Error('no attempt');
  const hold = await ledger.hold({
    generationId: 'gen-1', accountId: KEY.accountId, workspaceId: KEY.workspaceId, keyId: KEY.keyId,
    amount: planHoldAmount(plan) * BigInt(calls), pending: pendingRecord('gen-1', KEY),
  });
  return { request, attempt, hold, estimate: requestFacts(request).promptTokens };
}

function outcomeOf(held: Held, usage: CoreUsage | undefined, extra: Partial<GenerationOutcome> = {}): GenerationOutcome {
  return {
    generationId: 'gen-1', key: KEY, request: held.request, attempt: held.attempt, estimatedPromptTokens: held.estimate,
    streamed: false, startedAt: NOW.getTime(), finishReason: 'length', ...(usage && { usage }), ...extra,
  };
}

interface Settlement {
  usd: number;
  record: GenerationRecord;
  overruns: Overrun[];
}

async function settle(ledger: RecordingLedger, held: Held, outcome: GenerationOutcome, price?: Parameters<typeof settleGeneration>[3]): Promise<Settlement> {
  const overruns: Overrun[] = [];
  const usd = await settleGeneration(ledger, held.hold, outcome, { ...price, onOverrun: (overrun) => overruns.push(overrun) });
  const record = ledger.settled.at(-1);
  if (!record) throw new Error('nothing settled');
  return { usd, record, overruns };
}

function lineAmounts(record: GenerationRecord): Units {
  return record.costLines.reduce((sum, line) => sum + (line.amount ?? 0n), 0n);
}

describe('the charge never exceeds the hold', () => {
  it('completion tokens past the held ceiling are not billable; the record keeps the reported counts', async () => {
    const ledger = new RecordingLedger();
    const held = await heldChat(ledger, 10);
    expect(held.attempt.heldCeiling).toBe(10);
    expect(held.hold.amount).toBe(PROMPT * BigInt(held.estimate) + COMPLETION * 10n);
    const usage = { promptTokens: held.estimate, completionTokens: 2010, reasoningTokens: 2000 };
    const { usd, record, overruns } = await settle(ledger, held, outcomeOf(held, usage));
    const charge = PROMPT * BigInt(held.estimate) + COMPLETION * 10n;
    expect(record.cost).toBe(charge);
    expect(usd).toBe(toUsdNumber(charge));
    expect(record).toMatchObject({ promptTokens: held.estimate, completionTokens: 2010, reasoningTokens: 2000 });
    expect(record.costLines).toEqual([
      { key: 'prompt', quantity: String(held.estimate), amount: PROMPT * BigInt(held.estimate) },
      { key: 'completion', quantity: '2010', amount: COMPLETION * 2010n },
    ]);
    expect(record.uncollected).toEqual({ amount: COMPLETION * 2000n, reasons: ['completion_over_ceiling'] });
    expect(lineAmounts(record)).toBe(record.cost + COMPLETION * 2000n);
    expect(overruns).toEqual([{ generationId: 'gen-1', endpointId: held.attempt.endpoint.id, amount: COMPLETION * 2000n, reasons: ['completion_over_ceiling'] }]);
  });

  it('a prompt counted above the estimate is charged while the hold covers it', async () => {
    const ledger = new RecordingLedger();
    const held = await heldChat(ledger, 10);
    const usage = { promptTokens: held.estimate + 5, completionTokens: 3 };
    const { record, overruns } = await settle(ledger, held, outcomeOf(held, usage));
    expect(record.cost).toBe(PROMPT * BigInt(held.estimate + 5) + COMPLETION * 3n);
    expect(record.cost).toBeLessThan(held.hold.amount);
    expect(record.uncollected).toBeUndefined();
    expect(overruns).toEqual([]);
  });

  it('a prompt counted so far above the estimate that it prices past the hold is charged the hold', async () => {
    const ledger = new RecordingLedger();
    const held = await heldChat(ledger, 10);
    const usage = { promptTokens: held.estimate + 500, completionTokens: 3 };
    const { record, overruns } = await settle(ledger, held, outcomeOf(held, usage));
    const reported = PROMPT * BigInt(held.estimate + 500) + COMPLETION * 3n;
    expect(record.cost).toBe(held.hold.amount);
    expect(record.promptTokens).toBe(held.estimate + 500);
    expect(record.uncollected).toEqual({ amount: reported - held.hold.amount, reasons: ['over_hold'] });
    expect(lineAmounts(record)).toBe(reported);
    expect(overruns.map((overrun) => overrun.reasons)).toEqual([['over_hold']]);
  });

  it('both at once: output cut at the ceiling, then the rest cut to the hold, both reasons recorded', async () => {
    const ledger = new RecordingLedger();
    const held = await heldChat(ledger, 10);
    const usage = { promptTokens: held.estimate + 500, completionTokens: 2010 };
    const { record } = await settle(ledger, held, outcomeOf(held, usage));
    const reported = PROMPT * BigInt(held.estimate + 500) + COMPLETION * 2010n;
    expect(record.cost).toBe(held.hold.amount);
    expect(record.uncollected).toEqual({ amount: reported - held.hold.amount, reasons: ['completion_over_ceiling', 'over_hold'] });
  });

  it('usage within the ceiling and the hold is charged in full and records nothing uncollected', async () => {
    const ledger = new RecordingLedger();
    const held = await heldChat(ledger, 10);
    const { record, overruns } = await settle(ledger, held, outcomeOf(held, { promptTokens: held.estimate, completionTokens: 10 }));
    expect(record.cost).toBe(held.hold.amount);
    expect(record.uncollected).toBeUndefined();
    expect(overruns).toEqual([]);
  });

  it('a typed decision holds N calls: N ceilings of output are billable, past them nothing', async () => {
    const ledger = new RecordingLedger();
    const held = await heldChat(ledger, 4, 3);
    expect(held.hold.amount).toBe((PROMPT * BigInt(held.estimate) + COMPLETION * 4n) * 3n);
    const within = await settle(ledger, held, outcomeOf(held, { promptTokens: 3 * held.estimate, completionTokens: 12 }, { calls: 3 }));
    expect(within.record.cost).toBe(held.hold.amount);
    expect(within.record.uncollected).toBeUndefined();
    const over = await settle(ledger, held, outcomeOf(held, { promptTokens: 3 * held.estimate, completionTokens: 3 * 54, reasoningTokens: 3 * 50 }, { calls: 3 }));
    expect(over.record.cost).toBe(held.hold.amount);
    expect(over.record.completionTokens).toBe(162);
    expect(over.record.uncollected).toEqual({ amount: COMPLETION * 150n, reasons: ['completion_over_ceiling'] });
  });

  it('speech is charged per character, exactly what its hold covers, with nothing uncollected', async () => {
    const ledger = new RecordingLedger();
    const catalogue = chatCatalogue(endpoint('alpha', { pricing: { character: '0.000015', request: '0.001' } }));
    const request = chatRequest({ maxTokens: 10, speech: { input: 'x'.repeat(1234), characters: 1234, format: 'mp3' } });
    const attempt = planOf(catalogue, chatRequest({ maxTokens: 10 })).attempts[0];
    if (!attempt) throw new Error('no attempt');
    const amount = holdAmount(attempt.endpoint.pricing, { promptTokens: 0, ceilingTokens: 0, characters: 1234, now: NOW });
    const owner = { accountId: 'acct-1', workspaceId: 'ws-1', keyId: 'key-1' };
    const hold = await ledger.hold({ generationId: 'gen-1', ...owner, amount, pending: pendingRecord('gen-1', owner) });
    const held = { request, attempt, hold, estimate: 0 };
    const { record, overruns } = await settle(ledger, held, outcomeOf(held, undefined), { price: priceCharacters });
    expect(amount).toBe(parseUsd('0.000015') * 1234n + parseUsd('0.001'));
    expect(record.cost).toBe(amount);
    expect(record.costLines).toEqual([
      { key: 'character', quantity: '1234', amount: parseUsd('0.000015') * 1234n },
      { key: 'request', quantity: '1', amount: parseUsd('0.001') },
    ]);
    expect(record.uncollected).toBeUndefined();
    expect(overruns).toEqual([]);
  });

  it('a refused answer is released, never charged, and nothing is uncollected', async () => {
    const ledger = new RecordingLedger();
    const held = await heldChat(ledger, 10);
    const usd = await settleGeneration(ledger, held.hold, outcomeOf(held, { promptTokens: held.estimate, completionTokens: 2010 }, { refused: true }));
    expect(usd).toBe(0);
    expect(ledger.settled).toEqual([]);
    expect(ledger.released[0]?.cost).toBe(0n);
    expect(ledger.released[0]?.uncollected).toBeUndefined();
  });
});

describe('usageWithinCeiling', () => {
  it('cuts the completion at the ceiling, reasoning counted first, and keeps the prompt', () => {
    expect(usageWithinCeiling({ promptTokens: 900, completionTokens: 2010, reasoningTokens: 2000 }, 10))
      .toEqual({ promptTokens: 900, completionTokens: 10, reasoningTokens: 10 });
    expect(usageWithinCeiling({ completionTokens: 30, reasoningTokens: 4 }, 10)).toEqual({ completionTokens: 10, reasoningTokens: 4 });
  });

  it('cuts reported reasoning when the completion went unreported, and leaves usage within the ceiling as it is', () => {
    expect(usageWithinCeiling({ reasoningTokens: 50 }, 10)).toEqual({ reasoningTokens: 10 });
    const within = { promptTokens: 5, completionTokens: 10 };
    expect(usageWithinCeiling(within, 10)).toBe(within);
  });
});

describe('capCharge', () => {
  it('names each cut that applied, in order, and what went uncollected in all', () => {
    expect(capCharge({ reported: 100n, withinCeiling: 100n }, 100n)).toEqual({ charge: 100n, uncollected: null });
    expect(capCharge({ reported: 100n, withinCeiling: 60n }, 80n)).toEqual({ charge: 60n, uncollected: { amount: 40n, reasons: ['completion_over_ceiling'] } });
    expect(capCharge({ reported: 100n, withinCeiling: 100n }, 70n)).toEqual({ charge: 70n, uncollected: { amount: 30n, reasons: ['over_hold'] } });
    expect(capCharge({ reported: 100n, withinCeiling: 90n }, 1n)).toEqual({ charge: 1n, uncollected: { amount: 99n, reasons: ['completion_over_ceiling', 'over_hold'] } });
  });
});
