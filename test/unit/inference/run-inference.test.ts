import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { KeyContext } from '../../../src/accounts/types.js';
import type { GenerationRecord, Hold, HoldRequest, Ledger } from '../../../src/billing/types.js';
import { GatewayError } from '../../../src/core/errors.js';
import type { CallPhase } from '../../../src/inference/call.js';
import { DIALECTS } from '../../../src/inference/dialects.js';
import { runInference } from '../../../src/inference/run-inference.js';
import type { InferenceServices } from '../../../src/inference/services.js';
import { LiveEndpointState } from '../../../src/stats/endpoint-state.js';
import { MemoryOverrunCounter } from '../../../src/stats/overrun-counter.js';
import { catalogueOf, endpoint, model } from '../../fixtures/planner/catalogue-yaml.js';
import { RecordingObserver } from './recording-observer.js';
import { AnsweringExecutor } from './answering-executor.js';

const catalogue = catalogueOf([model('acme/chat', [endpoint('alpha')])]);

const KEY: KeyContext = {
  keyId: 'key-1', hash: 'hash-1', accountId: 'acct-1', workspaceId: 'ws-1', name: 'test', label: 'sk-…', management: false, scopeLimits: {}, expiresAt: null,
};

/** A ledger that keeps every hold, settlement and refusal it was asked to write, in order. */
class RecordingLedger implements Ledger {
  readonly writes: string[] = [];
  readonly refusals: GenerationRecord[] = [];

  hold(request: HoldRequest): Promise<Hold> {
    this.writes.push(`hold ${request.generationId}`);
    return Promise.resolve({ ...request, id: 'hold-1', heldAt: new Date(), expiresAt: new Date(Date.now() + 60_000) });
  }
  async settle(_hold: Hold, record: GenerationRecord): Promise<void> {
    this.writes.push(`settle ${record.id}`);
  }
  async release(): Promise<void> {
    this.writes.push('release');
  }
  async recordRefusal(record: GenerationRecord): Promise<void> {
    this.writes.push(`refusal ${record.id}`);
    this.refusals.push(record);
  }
  releaseExpired(): Promise<number> {
    return Promise.resolve(0);
  }
}

function setup() {
  const ledger = new RecordingLedger();
  const services: InferenceServices = {
    catalogue: { current: () => catalogue }, state: new LiveEndpointState(), ledger, checkpoints: { cadence: { tokens: 1, intervalMs: 0 }, record: async () => undefined, committed: async () => undefined },
    executor: new AnsweringExecutor(), overruns: new MemoryOverrunCounter(), logger: pino({ level: 'silent' }), samples: { record: () => undefined },
  };
  const phases: CallPhase[] = [];
  const call = {
    key: KEY, generationId: 'gen-1', signal: new AbortController().signal, restart: new AbortController().signal, observer: new RecordingObserver(),
    onPhase: (phase: CallPhase) => phases.push(phase),
  };
  return { ledger, services, call, phases };
}

async function refusalOf(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(() => undefined, (thrown: unknown) => thrown);
  if (!(error instanceof GatewayError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('the one entry into the pipeline', () => {
  it('refuses a body its dialect does not admit with the route\'s error, recording it once, costing nothing, before any hold', async () => {
    const { ledger, services, call, phases } = setup();
    const body = { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }], temperature: 'warm', metadata: { team: 'a' } };
    const error = await refusalOf(runInference(services, call, DIALECTS.chat, body, { 'x-title': 'Tester' }));
    expect(error.code).toBe('invalid_request');
    expect(error.message).toMatch(/^temperature: /);
    expect(ledger.writes).toEqual(['refusal gen-1']);
    expect(ledger.refusals[0]).toMatchObject({ id: 'gen-1', accountId: 'acct-1', keyId: 'key-1', cost: 0n, model: 'acme/chat' });
    expect(phases).toEqual([]);
  });

  it('records a request no endpoint can take (an unknown model) the same way, and tells the observer', async () => {
    const { ledger, services, call } = setup();
    const error = await refusalOf(runInference(services, call, DIALECTS.chat, { model: 'acme/none', messages: [{ role: 'user', content: 'Hi' }] }, {}));
    expect(error.code).toBe('not_found');
    expect(ledger.writes).toEqual(['refusal gen-1']);
    expect(call.observer.heard).toEqual(['refused not_found']);
  });

  it('admits optional members sent as null as if left out', async () => {
    const { services, call } = setup();
    const answer = await runInference(services, call, DIALECTS.chat, { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }], temperature: null, stop: null }, {});
    expect(answer.type).toBe('whole');
  });

  it('runs a held call through its phases in order, recorded by its settlement alone', async () => {
    const { ledger, services, call, phases } = setup();
    const answer = await runInference(services, call, DIALECTS.chat, { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] }, {});
    if (answer.type !== 'whole') throw new Error(`answered ${answer.type}`);
    expect(answer.reply.status).toBe(200);
    expect(phases).toEqual(['held', 'answered', 'ended', 'settled']);
    expect(ledger.writes).toEqual(['hold gen-1', 'settle gen-1']);
  });

  it('refuses a body nested past the depth limit, naming the path', async () => {
    const { services, call } = setup();
    let deep: Record<string, unknown> = {};
    const metadata = deep;
    for (let level = 0; level < 200; level += 1) {
      const next = {};
      deep.a = next;
      deep = next;
    }
    const error = await refusalOf(runInference(services, call, DIALECTS.chat, { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }], metadata }, {}));
    expect(error.message).toMatch(/^metadata\.a\.a\.a\.a\.a…: nested deeper than 128 levels$/);
  });
});
