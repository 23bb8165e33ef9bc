import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { KeyContext } from '../../../src/accounts/types.js';
import { formatUsd, parseUsd } from '../../../src/billing/money.js';
import type { GenerationRecord, Hold, HoldRequest, Ledger } from '../../../src/billing/types.js';
import type { CoreUsage } from '../../../src/core/events.js';
import { CallState } from '../../../src/inference/call-state.js';
import { prepareInference } from '../../../src/inference/prepare.js';
import { LiveEndpointState } from '../../../src/stats/endpoint-state.js';
import { MemoryOverrunCounter } from '../../../src/stats/overrun-counter.js';
import { chatCatalogue, endpoint } from '../../fixtures/planner/catalogue-yaml.js';
import { chatRequest } from '../../fixtures/planner/planning.js';
import { RecordingObserver } from './recording-observer.js';

const KEY: KeyContext = {
  keyId: 'key-1', hash: 'hash-1', accountId: 'acct-1', workspaceId: 'ws-1', name: 'test', label: 'sk-…', management: false, scopeLimits: {}, expiresAt: null,
};

/** A ledger that keeps the records it settles. */
class RecordingLedger implements Ledger {
  readonly settled: GenerationRecord[] = [];

  hold(request: HoldRequest): Promise<Hold> {
    return Promise.resolve({ ...request, id: 'hold-1', heldAt: new Date(), expiresAt: new Date(Date.now() + 60_000) });
  }
  async settle(_hold: Hold, record: GenerationRecord): Promise<void> {
    this.settled.push(record);
  }
  async release(): Promise<void> {}
  async recordRefusal(): Promise<void> {}
  releaseExpired(): Promise<number> {
    return Promise.resolve(0);
  }
}

/** Settles one chat held for max_tokens 10 whose endpoint reported `usage`; returns what the log and the counter saw. */
async function settleChat(usage: (estimate: number) => CoreUsage) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
  const ledger = new RecordingLedger();
  const overruns = new MemoryOverrunCounter();
  const catalogue = chatCatalogue(endpoint('alpha'));
  const call = { key: KEY, generationId: 'gen-1', signal: new AbortController().signal, restart: new AbortController().signal, observer: new RecordingObserver() };
  const prepared = await prepareInference({ catalogue: { current: () => catalogue }, state: new LiveEndpointState(), ledger }, call, chatRequest({ maxTokens: 10 }));
  const samples = { record: () => undefined };
  const attempt = prepared.plan.attempts[0];
  if (!attempt) throw new Error('the plan has no attempt');
  const state = new CallState(prepared, false);
  state.answered(samples, { attempt, events: [], failures: [], startedAt: prepared.startedAt });
  state.endedWith({ usage: usage(prepared.promptTokens), finishReason: 'stop' });
  const usd = await state.settle({ ledger, logger, overruns, samples, state: new LiveEndpointState() });
  return { usd, lines, overruns, record: ledger.settled[0], prepared };
}

describe('settling an answer that reported more than it was held for', () => {
  it('counts the overrun against the endpoint and logs one warning naming the endpoint, the generation and the amount', async () => {
    const { usd, lines, overruns, record, prepared } = await settleChat((estimate) => ({ promptTokens: estimate, completionTokens: 2010 }));
    const uncollected = parseUsd('0.000002') * 2000n;
    expect(record?.cost).toBe(prepared.hold.amount);
    expect(usd).toBe(Number(formatUsd(prepared.hold.amount)));
    expect(overruns.read()).toEqual([{ endpointId: 'alpha/acme/chat', count: 1, uncollectedUnits: uncollected }]);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({
      level: 40,
      endpoint: 'alpha/acme/chat',
      generation: 'gen-1',
      uncollected_usd: formatUsd(uncollected),
      reason: 'completion_over_ceiling',
    });
    expect(Object.keys(line ?? {}).sort()).toEqual(['endpoint', 'generation', 'hostname', 'level', 'msg', 'pid', 'reason', 'time', 'uncollected_usd']);
  });

  it('an answer within its hold is neither counted nor logged', async () => {
    const { lines, overruns, record } = await settleChat((estimate) => ({ promptTokens: estimate, completionTokens: 10 }));
    expect(record?.uncollected).toBeUndefined();
    expect(overruns.read()).toEqual([]);
    expect(lines).toEqual([]);
  });
});

describe('the phases of a call', () => {
  it('move only forward: settling a call whose answer has not ended is a fault, not a charge', async () => {
    const ledger = new RecordingLedger();
    const catalogue = chatCatalogue(endpoint('alpha'));
    const call = { key: KEY, generationId: 'gen-1', signal: new AbortController().signal, restart: new AbortController().signal, observer: new RecordingObserver() };
    const prepared = await prepareInference({ catalogue: { current: () => catalogue }, state: new LiveEndpointState(), ledger }, call, chatRequest({ maxTokens: 10 }));
    const state = new CallState(prepared, false);
    const services = { ledger, logger: pino({ level: 'silent' }), overruns: new MemoryOverrunCounter(), samples: { record: () => undefined }, state: new LiveEndpointState() };
    await expect(state.settle(services)).rejects.toThrow('gen-1: settled after held');
    expect(ledger.settled).toEqual([]);
    expect(state.phase).toBe('held');
  });
});
