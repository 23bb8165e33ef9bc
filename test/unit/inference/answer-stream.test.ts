import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import type { KeyContext } from '../../../src/accounts/types.js';
import { parseUsd } from '../../../src/billing/money.js';
import type { CheckpointCadence, DeliveredSoFar, GenerationCheckpoints, GenerationRecord, Hold, HoldRequest, Ledger } from '../../../src/billing/types.js';
import type { CoreEvent, UpstreamFailure } from '../../../src/core/events.js';
import type { Plan } from '../../../src/core/plan.js';
import type { CoreRequest } from '../../../src/core/request.js';
import { chatDialect } from '../../../src/dialects/chat/binding.js';
import { answerStream } from '../../../src/inference/answer-stream.js';
import { RecordedStream, type StreamPart } from '../../../src/inference/stream-output.js';
import { eachPulled, type StreamReads } from '../../../src/inference/upstream-events.js';
import { AllAttemptsFailed, type Answer, type InferenceExecutor } from '../../../src/inference/executor.js';
import { prepareInference } from '../../../src/inference/prepare.js';
import type { InferenceServices } from '../../../src/inference/services.js';
import { LiveEndpointState } from '../../../src/stats/endpoint-state.js';
import type { EndpointSample, SampleRecorder } from '../../../src/stats/endpoint-sample.js';
import { MemoryOverrunCounter } from '../../../src/stats/overrun-counter.js';
import { catalogueOf, endpoint, model } from '../../fixtures/planner/catalogue-yaml.js';
import { RecordingObserver } from './recording-observer.js';

const catalogue = catalogueOf([model('acme/chat', [endpoint('alpha')])]);

const KEY: KeyContext = {
  keyId: 'key-1', hash: 'hash-1', accountId: 'acct-1', workspaceId: 'ws-1', name: 'test', label: 'sk-…', management: false, scopeLimits: {}, expiresAt: null,
};

const REQUEST: CoreRequest = {
  models: ['acme/chat'],
  messages: [{ role: 'user', content: 'Hi' }],
  stream: true,
  parameters: {},
  softParameters: {},
  passthrough: {},
  attribution: {},
};

/** A ledger that keeps what it was asked to settle or release; `down` makes both throw. */
class RecordingLedger implements Ledger {
  readonly settled: GenerationRecord[] = [];
  readonly released: (GenerationRecord | undefined)[] = [];
  down = false;

  hold(request: HoldRequest): Promise<Hold> {
    return Promise.resolve({ ...request, id: 'hold-1', heldAt: new Date(), expiresAt: new Date(Date.now() + 60_000) });
  }
  settle(_hold: Hold, record: GenerationRecord): Promise<void> {
    if (this.down) return Promise.reject(new Error('database unreachable'));
    this.settled.push(record);
    return Promise.resolve();
  }
  release(_hold: Hold, record?: GenerationRecord): Promise<void> {
    if (this.down) return Promise.reject(new Error('database unreachable'));
    this.released.push(record);
    return Promise.resolve();
  }
  recordRefusal(): Promise<void> {
    return Promise.resolve();
  }
  releaseExpired(): Promise<number> {
    return Promise.resolve(0);
  }
}

/** Checkpoints kept in order; by default one after every part with new output. */
class RecordingCheckpoints implements GenerationCheckpoints {
  readonly recorded: Array<{ generationId: string; delivered: DeliveredSoFar }> = [];

  constructor(readonly cadence: CheckpointCadence = { tokens: 1, intervalMs: 0 }) {}

  record(generationId: string, delivered: DeliveredSoFar): Promise<void> {
    this.recorded.push({ generationId, delivered });
    return Promise.resolve();
  }

  committed(hold: Hold, endpointId: string): Promise<void> {
    return this.record(hold.generationId, { endpointId, completionTokens: 0 });
  }
}

/** What the scripted executor's stream does: commit and yield these events, or fail before any commit. */
type StreamScript =
  | { events: (signal: AbortSignal) => AsyncGenerator<CoreEvent> }
  | { fails: (plan: Plan, signal: AbortSignal) => Promise<AllAttemptsFailed> };

/**
 * An executor whose stream is scripted; the script gets the attempt signal. `closed` tells whether
 * the caller let go of the committed events.
 */
class ScriptedExecutor implements InferenceExecutor {
  closed = false;

  constructor(private readonly script: StreamScript) {}

  async stream(_request: CoreRequest, plan: Plan, signal: AbortSignal): Promise<Answer<StreamReads>> {
    if ('fails' in this.script) throw await this.script.fails(plan, signal);
    const attempt = plan.attempts[0];
    if (!attempt) throw new Error('empty plan');
    const reads = this.marked(this.script.events(signal));
    return { attempt, events: { each: (step) => eachPulled(reads, step) }, failures: [], startedAt: Date.now() };
  }

  /** The scripted events, each as an upstream read of its own. */
  private async *marked(events: AsyncGenerator<CoreEvent>): AsyncGenerator<CoreEvent[]> {
    try {
      for await (const event of events) yield [event];
    } finally {
      this.closed = true;
    }
  }

  complete(): never {
    throw new Error('not scripted');
  }
  relay(): never {
    throw new Error('not scripted');
  }
  unary(): never {
    throw new Error('not scripted');
  }
  unaryStream(): never {
    throw new Error('not scripted');
  }
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

const ANSWER: CoreEvent[] = [
  { type: 'meta', upstreamId: 'up-1', model: 'alpha-model' },
  { type: 'text.start', index: 0 },
  { type: 'text.delta', index: 0, text: 'Hel' },
  { type: 'text.delta', index: 0, text: 'lo' },
  { type: 'text.end', index: 0 },
  { type: 'finish', reason: 'stop', raw: 'stop' },
  { type: 'usage', usage: { promptTokens: 5, completionTokens: 2 } },
];

async function* scripted(events: readonly CoreEvent[]): AsyncGenerator<CoreEvent> {
  yield* events;
}

interface Run {
  ledger: RecordingLedger;
  checkpoints: RecordingCheckpoints;
  executor: ScriptedExecutor;
  caller: AbortController;
  restart: AbortController;
  observer: RecordingObserver;
  samples: RecordingSamples;
  /** Runs the stream; `onPart` sees each part as it is written (a promise answered holds the stream until it settles). */
  parts: (onPart?: (part: StreamPart) => Promise<void> | undefined) => Promise<StreamPart[]>;
}

async function start(script: StreamScript, checkpoints = new RecordingCheckpoints()): Promise<Run> {
  const ledger = new RecordingLedger();
  const executor = new ScriptedExecutor(script);
  const samples = new RecordingSamples();
  const services: InferenceServices = {
    catalogue: { current: () => catalogue }, state: new LiveEndpointState(), ledger, checkpoints, executor,
    overruns: new MemoryOverrunCounter(), logger: pino({ level: 'silent' }), samples,
  };
  const caller = new AbortController();
  const restart = new AbortController();
  const observer = new RecordingObserver();
  const call = { key: KEY, generationId: 'gen-1', signal: caller.signal, restart: restart.signal, observer };
  const prepared = await prepareInference(services, call, REQUEST);
  const parts = async (onPart?: (part: StreamPart) => Promise<void> | undefined) => {
    const output = new RecordedStream(onPart);
    await answerStream(services, prepared, chatDialect, output);
    return output.parts;
  };
  return { ledger, checkpoints, executor, caller, restart, observer, samples, parts };
}

/** Every sample recorded, with its endpoint. */
class RecordingSamples implements SampleRecorder {
  readonly recorded: Array<{ endpointId: string } & EndpointSample> = [];

  record(endpointId: string, sample: EndpointSample): void {
    this.recorded.push({ endpointId, ...sample });
  }
}

/** The `data:` payloads of the text parts, `[DONE]` as is, the rest parsed. */
function frames(parts: readonly StreamPart[]): unknown[] {
  return parts
    .flatMap((part) => (part.type === 'text' ? part.text.split('\n\n') : []))
    .filter((frame) => frame.startsWith('data: '))
    .map((frame) => frame.slice('data: '.length))
    .map((data) => (data === '[DONE]' ? data : JSON.parse(data) as unknown));
}

interface ChatFrame {
  choices: Array<{ delta: Record<string, unknown>; finish_reason: string | null }>;
  usage?: Record<string, unknown>;
  error?: { code: number; message: string; metadata: { error_type: string } };
}

describe('a committed stream', () => {
  it('opens naming the provider, writes a frame per content event, then the usage frame with the settled cost and [DONE]', async () => {
    const run = await start({ events: () => scripted(ANSWER) });
    const parts = await run.parts();
    expect(parts[0]).toEqual({ type: 'open', headers: { 'x-provider-name': 'Provider alpha' } });
    expect(parts.slice(1).every((part) => part.type === 'text')).toBe(true);
    const [hel, lo, finish, usage, done, ...rest] = frames(parts) as ChatFrame[];
    expect(rest).toEqual([]);
    expect(hel?.choices[0]?.delta).toEqual({ role: 'assistant', content: 'Hel' });
    expect(lo?.choices[0]?.delta).toEqual({ content: 'lo' });
    expect(finish?.choices[0]?.finish_reason).toBe('stop');
    expect(usage?.choices).toEqual([]);
    expect(usage?.usage).toEqual({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7, cost: 0.000009 });
    expect(done).toBe('[DONE]');
    expect(run.ledger.settled).toHaveLength(1);
    expect(run.ledger.settled[0]).toMatchObject({ id: 'gen-1', status: 'success', promptTokens: 5, completionTokens: 2, cost: parseUsd('0.000009') });
  });

  it('a caller who leaves mid-stream stops it: nothing more is written, recorded cancelled (408), charged, the upstream let go', async () => {
    const run = await start({ events: () => scripted([...ANSWER.slice(0, 3), { type: 'text.delta', index: 0, text: ' and more' }, ...ANSWER.slice(3)]) });
    const parts = await run.parts((part) => {
      if (part.type === 'text' && part.text.includes('Hel')) run.caller.abort();
      return undefined;
    });
    expect(frames(parts).map((frame) => (frame as ChatFrame).choices[0]?.delta)).toEqual([{ role: 'assistant', content: 'Hel' }]);
    expect(run.executor.closed).toBe(true);
    expect(run.ledger.released).toEqual([]);
    expect(run.ledger.settled).toHaveLength(1);
    const record = run.ledger.settled[0];
    expect(record).toMatchObject({ status: 'cancelled', errorCode: 408 });
    expect(record?.cost).toBeGreaterThan(0n);
  });

  it('a restart ends it with the in-band 503 saying to retry in 5 seconds, then [DONE]', async () => {
    const run = await start({
      async *events(signal) {
        yield* ANSWER.slice(0, 3);
        await untilAborted(signal);
        yield { type: 'error', failure: { kind: 'incomplete', retryable: true, providerMessage: 'The provider stream closed before the answer finished' } };
      },
    });
    const parts = await run.parts((part) => {
      if (part.type === 'text' && part.text.includes('Hel')) run.restart.abort();
      return undefined;
    });
    const written = frames(parts);
    expect(written.at(-1)).toBe('[DONE]');
    const last = written.at(-2) as ChatFrame;
    expect(last.choices[0]?.finish_reason).toBe('error');
    expect(last.error).toMatchObject({ code: 503, metadata: { error_type: 'server' } });
    expect(last.error?.message).toMatch(/retry in 5 seconds/);
    expect(written.some((frame) => (frame as ChatFrame).usage !== undefined)).toBe(false);
    expect(run.ledger.settled[0]).toMatchObject({ status: 'error', errorCode: 503 });
  });

  it('a charge the ledger cannot record ends it with the in-band 503 server error instead of the usage frame', async () => {
    const run = await start({ events: () => scripted(ANSWER) });
    run.ledger.down = true;
    const written = frames(await run.parts());
    expect(written.at(-1)).toBe('[DONE]');
    expect((written.at(-2) as ChatFrame).error).toMatchObject({ code: 503, message: 'The answer could not be recorded; repeat the request', metadata: { error_type: 'server' } });
    expect(written.some((frame) => (frame as ChatFrame).usage !== undefined)).toBe(false);
  });
});

describe('what the call observer hears of a stream', () => {
  it('the endpoint that answered, then the stream opening and closing once its content came', async () => {
    const run = await start({ events: () => scripted(ANSWER) });
    await run.parts();
    expect(run.observer.heard).toEqual(['answered alpha/acme/chat', 'stream opened', 'stream closed after content']);
  });

  it('every failed attempt, each followed by another one a failover, and no stream when none answered', async () => {
    const run = await start({
      fails: async (plan) => {
        const attempt = plan.attempts[0];
        if (!attempt) throw new Error('empty plan');
        return new AllAttemptsFailed([
          { attempt, failure: { kind: 'http', status: 503, retryable: true } },
          { attempt, failure: { kind: 'timeout', retryable: true } },
        ]);
      },
    });
    await run.parts();
    expect(run.observer.heard).toEqual(['failed alpha/acme/chat http failover', 'failed alpha/acme/chat timeout']);
  });
});

describe('what a stream records for its endpoint\'s figures', () => {
  const failedAttempts = (failures: UpstreamFailure[]) => async (plan: Plan) => {
    const attempt = plan.attempts[0];
    if (!attempt) throw new Error('empty plan');
    return new AllAttemptsFailed(failures.map((failure) => ({ attempt, failure })));
  };

  it('a complete stream: answered, with its time to first token and whole time, not cut by the ceiling', async () => {
    const run = await start({ events: () => scripted(ANSWER) });
    await run.parts();
    expect(run.samples.recorded).toHaveLength(1);
    const sample = run.samples.recorded[0];
    expect(sample).toMatchObject({ endpointId: 'alpha/acme/chat', ok: true, runaway: false });
    expect(sample?.ttftSeconds).toBeGreaterThanOrEqual(0);
    expect(sample?.responseSeconds).toBeGreaterThanOrEqual(sample?.ttftSeconds ?? 0);
    // two completion tokens are too few for a throughput sample
    expect(sample?.tokensPerSecond).toBeUndefined();
  });

  it('twenty tokens that came all at once still make a throughput sample, never left out: a span read as 0 ms counts as 1 ms', async () => {
    const usage: CoreEvent = { type: 'usage', usage: { promptTokens: 5, completionTokens: 20 } };
    const run = await start({ events: () => scripted([...ANSWER.slice(0, -1), usage]) });
    await run.parts();
    const sample = run.samples.recorded[0];
    // at most 20 tokens per millisecond: the floor of a span under 1 ms
    expect(sample?.tokensPerSecond).toBeGreaterThan(0);
    expect(sample?.tokensPerSecond).toBeLessThanOrEqual(20 * 1000);
  });

  it('a stream its caller left says nothing of the endpoint\'s uptime', async () => {
    const run = await start({ events: () => scripted([...ANSWER.slice(0, 3), { type: 'text.delta', index: 0, text: ' and more' }, ...ANSWER.slice(3)]) });
    await run.parts((part) => {
      if (part.type === 'text' && part.text.includes('Hel')) run.caller.abort();
      return undefined;
    });
    expect(run.samples.recorded).toHaveLength(1);
    expect(run.samples.recorded[0]?.ok).toBeUndefined();
    expect(run.samples.recorded[0]?.responseSeconds).toBeUndefined();
  });

  it('a stream its endpoint broke off is that endpoint\'s failure', async () => {
    const broken: CoreEvent = { type: 'error', failure: { kind: 'incomplete', retryable: true, providerMessage: 'closed early' } };
    const run = await start({ events: () => scripted([...ANSWER.slice(0, 3), broken]) });
    await run.parts();
    expect(run.samples.recorded).toEqual([expect.objectContaining({ endpointId: 'alpha/acme/chat', ok: false })]);
  });

  it('failed attempts count against their endpoint, except a rejection of the request itself', async () => {
    const run = await start({
      fails: failedAttempts([
        { kind: 'http', status: 503, retryable: true },
        { kind: 'http', status: 400, retryable: true, providerMessage: 'unknown parameter' },
        { kind: 'timeout', retryable: true },
      ]),
    });
    await run.parts();
    expect(run.samples.recorded).toEqual([{ endpointId: 'alpha/acme/chat', ok: false }, { endpointId: 'alpha/acme/chat', ok: false }]);
  });

  it('an answer in prose where a tool call was required: the endpoint was up, its tool call failed', async () => {
    const run = await start({ fails: failedAttempts([{ kind: 'contract', retryable: true }]) });
    await run.parts();
    expect(run.samples.recorded).toEqual([{ endpointId: 'alpha/acme/chat', ok: true, toolCall: false }]);
  });
});

describe('checkpoints of a committed stream', () => {
  const WORDS: CoreEvent[] = [
    { type: 'text.start', index: 0 },
    ...['One', ' two', ' three', ' four', ' five'].map((text): CoreEvent => ({ type: 'text.delta', index: 0, text })),
    { type: 'text.end', index: 0 },
    { type: 'finish', reason: 'stop', raw: 'stop' },
  ];

  it('the commit is checkpointed at once, then what was delivered as it goes, naming the serving endpoint, with counts that only grow', async () => {
    const run = await start({ events: () => scripted(WORDS) });
    await run.parts();
    const counts = run.checkpoints.recorded.map(({ delivered }) => delivered.completionTokens);
    expect(counts).toEqual([0, 1, 2, 3, 4]);
    expect(run.checkpoints.recorded.every(({ generationId, delivered }) => generationId === 'gen-1' && delivered.endpointId === catalogue.endpoints.keys().next().value)).toBe(true);
  });

  it('a part is checkpointed only once the caller took it: a full output holds the checkpoint and the stream', async () => {
    const run = await start({ events: () => scripted(WORDS) });
    let take = () => {};
    let held = false;
    const counts = () => run.checkpoints.recorded.map(({ delivered }) => delivered.completionTokens);
    const done = run.parts((part) => {
      if (held || part.type !== 'text' || !part.text.includes('three')) return undefined;
      held = true;
      return new Promise((resolve) => {
        take = resolve;
      });
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(held).toBe(true);
    expect(counts()).toEqual([0, 1]);
    take();
    await done;
    expect(counts()).toEqual([0, 1, 2, 3, 4]);
  });

  it('a stream shorter than the cadence is checkpointed once, at its commit, with nothing delivered', async () => {
    const run = await start({ events: () => scripted(WORDS) }, new RecordingCheckpoints({ tokens: 1, intervalMs: 60_000 }));
    await run.parts();
    expect(run.checkpoints.recorded.map(({ delivered }) => delivered.completionTokens)).toEqual([0]);
    expect(run.ledger.settled).toHaveLength(1);
  });
});

describe('a stream that never commits', () => {
  it('every endpoint failing is refused: the HTTP answer while nothing was written, released charging nothing', async () => {
    const run = await start({
      fails: async (plan) => new AllAttemptsFailed(plan.attempts.map((attempt) => ({ attempt, failure: { kind: 'http', status: 500, retryable: true, providerMessage: 'boom' } }))),
    });
    const parts = await run.parts();
    expect(parts).toHaveLength(1);
    const refused = parts[0];
    if (refused?.type !== 'refused') throw new Error('expected a refusal');
    expect(refused.reply.status).toBe(502);
    expect(refused.reply.body).toMatchObject({ error: { code: 502, metadata: { error_type: 'provider_error', provider_name: 'Provider alpha', provider_status: 500 } } });
    expect(refused.inBand).toContain('"finish_reason":"error"');
    expect(run.ledger.released).toHaveLength(1);
    expect(run.ledger.released[0]).toMatchObject({ status: 'error', errorCode: 502, cost: 0n });
  });

  it('a restart before the commit is refused with 503 and Retry-After: 5', async () => {
    const run = await start({
      fails: async (_plan, signal) => {
        await untilAborted(signal);
        return new AllAttemptsFailed([]);
      },
    });
    const pending = run.parts();
    run.restart.abort();
    const [refused] = await pending;
    if (refused?.type !== 'refused') throw new Error('expected a refusal');
    expect(refused.reply.status).toBe(503);
    expect(refused.reply.headers).toMatchObject({ 'retry-after': '5', 'x-should-retry': 'true' });
    expect(run.ledger.released[0]).toMatchObject({ errorCode: 503, cost: 0n });
  });
});
