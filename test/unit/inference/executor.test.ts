import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../src/core/events.js';
import type { EmbeddingsAsk } from '../../../src/core/embeddings.js';
import type { Plan, PlannedAttempt } from '../../../src/core/plan.js';
import type { CoreRequest } from '../../../src/core/request.js';
import type { RerankAsk } from '../../../src/core/rerank.js';
import { AllAttemptsFailed, Executor } from '../../../src/inference/executor.js';
import { STOP, type StreamReads } from '../../../src/inference/upstream-events.js';
import { MemoryEndpointHealth, type EndpointHealth } from '../../../src/stats/endpoint-health.js';
import { embeddingsAdapters, rerankAdapters } from '../../../src/upstream/operation-registry.js';
import { speechAdapterFor } from '../../../src/upstream/speech-adapter.js';
import { catalogueOf, endpoint, model } from '../../fixtures/planner/catalogue-yaml.js';
import { chatReply, chunk, sse, ScriptedTransport } from './scripted-transport.js';

const catalogue = catalogueOf([model('acme/chat', [endpoint('alpha'), endpoint('beta'), endpoint('gamma')])]);

const ALPHA = 'http://127.0.0.1:9101/alpha/v1';
const BETA = 'http://127.0.0.1:9101/beta/v1';
const GAMMA = 'http://127.0.0.1:9101/gamma/v1';

function attemptAt(slug: string): PlannedAttempt {
  const served = catalogue.endpoints.get(`${slug}/acme/chat`);
  const owner = catalogue.models.get('acme/chat');
  if (!served || !owner) throw new Error(`no endpoint ${slug}`);
  return { model: owner, modelId: 'acme/chat', endpoint: served, promptTokens: 5, heldCeiling: 100 };
}

/** The attempts of the given providers, in that order. */
function planOf(...slugs: string[]): Plan {
  return { attempts: slugs.map(attemptAt) };
}

const ALL = planOf('alpha', 'beta', 'gamma');

function request(members: Partial<CoreRequest> = {}): CoreRequest {
  return {
    models: ['acme/chat'],
    messages: [{ role: 'user', content: 'Hi' }],
    stream: false,
    parameters: {},
    softParameters: {},
    passthrough: {},
    attribution: {},
    ...members,
  };
}

const TOOLS: CoreRequest['tools'] = [
  { type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } },
  { type: 'function', function: { name: 'other', parameters: { type: 'object' } } },
];

const speech = request({ speech: { input: 'Hello', characters: 5, format: 'mp3' } });

/** Health as recorded, in order. */
class RecordingHealth implements EndpointHealth {
  readonly records: Array<[string, boolean]> = [];
  record(endpointId: string, ok: boolean): void {
    this.records.push([endpointId, ok]);
  }
  isHealthy(): boolean {
    return true;
  }
}

function setup(): { transport: ScriptedTransport; health: RecordingHealth; executor: Executor } {
  const transport = new ScriptedTransport();
  const health = new RecordingHealth();
  return { transport, health, executor: new Executor(transport, health) };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The events of a stream, read after read. */
async function streamed(reads: StreamReads): Promise<CoreEvent[]> {
  const events: CoreEvent[] = [];
  await reads.each((read) => {
    events.push(...read);
    return undefined;
  });
  return events;
}

async function failuresOf(run: Promise<unknown>): Promise<AllAttemptsFailed['failures']> {
  const error = await run.then(() => undefined, (thrown: unknown) => thrown);
  if (!(error instanceof AllAttemptsFailed)) throw new Error(`expected AllAttemptsFailed, got ${String(error)}`);
  return error.failures;
}

const texts = (events: readonly CoreEvent[]) => events.flatMap((event) => (event.type === 'text.delta' ? [event.text] : []));
const okStream = (text: string) => ({ body: [sse([chunk.text(text), chunk.finish(), chunk.usage(5, 1)])] });
const okReply = (text: string) => ({ body: [chatReply({ content: text })] });

describe('failover order', () => {
  it('attempts are tried in plan order; retryable failures move on and are collected in order', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { status: 503, body: ['{"error":{"message":"busy"}}'] });
    transport.script(BETA, { throws: new Error('connect ECONNREFUSED') });
    transport.script(GAMMA, okReply('from gamma'));
    const answer = await executor.complete(request(), ALL, new AbortController().signal);
    expect(transport.calledUrls).toEqual([ALPHA, BETA, GAMMA]);
    expect(answer.attempt.endpoint.id).toBe('gamma/acme/chat');
    expect(texts(answer.events)).toEqual(['from gamma']);
    expect(answer.failures.map((entry) => [entry.attempt.endpoint.id, entry.failure.kind, entry.failure.status])).toEqual([
      ['alpha/acme/chat', 'http', 503],
      ['beta/acme/chat', 'network', undefined],
    ]);
    expect(answer.failures[0]?.failure.providerMessage).toBe('busy');
  });

  it('the plan order is followed whatever it is', async () => {
    const { transport, executor } = setup();
    transport.script(GAMMA, { status: 500 });
    transport.script(ALPHA, { status: 502 });
    transport.script(BETA, okReply('from beta'));
    const answer = await executor.complete(request(), planOf('gamma', 'alpha', 'beta'), new AbortController().signal);
    expect(transport.calledUrls).toEqual([GAMMA, ALPHA, BETA]);
    expect(answer.attempt.endpoint.id).toBe('beta/acme/chat');
  });

  it('a non-retryable failure stops: later attempts are never tried', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { status: 413, body: ['{"error":{"message":"too large"}}'] });
    transport.script(BETA, okReply('never'));
    const failures = await failuresOf(executor.complete(request(), ALL, new AbortController().signal));
    expect(transport.calledUrls).toEqual([ALPHA]);
    expect(failures).toHaveLength(1);
    expect(failures[0]?.failure).toMatchObject({ kind: 'http', status: 413, retryable: false });
  });

  it('when every attempt fails, AllAttemptsFailed holds each failure in plan order', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { status: 429, headers: { 'retry-after': '3' } });
    transport.script(BETA, { throws: new Error('socket hang up') });
    transport.script(GAMMA, { body: ['not json'] });
    const failures = await failuresOf(executor.complete(request(), ALL, new AbortController().signal));
    expect(failures.map((entry) => entry.attempt.endpoint.id)).toEqual(['alpha/acme/chat', 'beta/acme/chat', 'gamma/acme/chat']);
    expect(failures.map((entry) => entry.failure.kind)).toEqual(['http', 'network', 'protocol']);
    expect(failures[0]?.failure.retryAfter).toBe('3');
  });

  it('an endpoint whose wire format has no adapter fails over without being called', async () => {
    const { transport, executor } = setup();
    const alpha = attemptAt('alpha');
    const foreign: PlannedAttempt = { ...alpha, endpoint: { ...alpha.endpoint, provider: { ...alpha.endpoint.provider, api: 'cohere' } } };
    transport.script(BETA, okReply('from beta'));
    const answer = await executor.complete(request(), { attempts: [foreign, attemptAt('beta')] }, new AbortController().signal);
    expect(transport.calledUrls).toEqual([BETA]);
    expect(answer.failures[0]?.failure).toMatchObject({ kind: 'protocol', retryable: true, providerMessage: 'No adapter for the cohere wire format' });
  });
});

describe('a stream commits on its first content event', () => {
  it('the events before and after the commit reach the caller in order, once', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [sse([chunk.role(), chunk.text('Hel')]), sse([chunk.text('lo'), chunk.finish(), chunk.usage(5, 2)])] });
    const answer = await executor.stream(request({ stream: true }), ALL, new AbortController().signal);
    expect(answer.failures).toEqual([]);
    expect(await streamed(answer.events)).toEqual([
      { type: 'meta', upstreamId: 'up-1', model: 'm' },
      { type: 'text.start', index: 0 },
      { type: 'text.delta', index: 0, text: 'Hel' },
      { type: 'text.delta', index: 0, text: 'lo' },
      { type: 'text.end', index: 0 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 2 } },
    ]);
    expect(transport.sent[0]?.body.end).toBe('finished');
  });

  it('an in-band error before any content fails over, and that body is let go', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [sse([chunk.role(), chunk.error('overloaded')], { done: false }), { hang: true }] });
    transport.script(BETA, okStream('from beta'));
    const answer = await executor.stream(request({ stream: true }), ALL, new AbortController().signal);
    expect(answer.attempt.endpoint.id).toBe('beta/acme/chat');
    expect(answer.failures.map((entry) => entry.failure.providerMessage)).toEqual(['overloaded']);
    // let go as the error is read, before the attempt is judged failed
    expect(transport.sent[0]?.body.end).toBe('released');
    expect(texts(await streamed(answer.events))).toEqual(['from beta']);
  });

  it('a stream that closes or breaks before any content fails over', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [sse([chunk.role()], { done: false })] });
    transport.script(BETA, { body: [sse([chunk.role()], { done: false }), { fail: new Error('other side closed') }] });
    transport.script(GAMMA, okStream('from gamma'));
    const answer = await executor.stream(request({ stream: true }), ALL, new AbortController().signal);
    expect(answer.attempt.endpoint.id).toBe('gamma/acme/chat');
    expect(answer.failures.map((entry) => entry.failure.kind)).toEqual(['incomplete', 'incomplete']);
  });

  it('a failure after content is committed: the in-band error ends the events and lets go of the body, with no failover', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [sse([chunk.text('Hel'), chunk.error('model crashed')], { done: false }), { hang: true }] });
    transport.script(BETA, okStream('never'));
    const answer = await executor.stream(request({ stream: true }), ALL, new AbortController().signal);
    expect(answer.attempt.endpoint.id).toBe('alpha/acme/chat');
    const events = await streamed(answer.events);
    expect(texts(events)).toEqual(['Hel']);
    expect(events.at(-1)).toMatchObject({ type: 'error', failure: { providerMessage: 'model crashed' } });
    expect(transport.calledUrls).toEqual([ALPHA]);
    expect(transport.sent[0]?.body.end).toBe('released');
  });

  it('a body that breaks after content ends the events with the incomplete error, with no failover', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [sse([chunk.text('Hel')], { done: false }), { fail: new Error('other side closed') }] });
    transport.script(BETA, okStream('never'));
    const answer = await executor.stream(request({ stream: true }), ALL, new AbortController().signal);
    const events = await streamed(answer.events);
    expect(texts(events)).toEqual(['Hel']);
    expect(events.at(-1)).toMatchObject({ type: 'error', failure: { kind: 'incomplete' } });
    expect(transport.calledUrls).toEqual([ALPHA]);
  });

  it('a finish without content commits an empty answer', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [sse([chunk.role(), chunk.finish('length')])] });
    const answer = await executor.stream(request({ stream: true }), ALL, new AbortController().signal);
    expect(answer.attempt.endpoint.id).toBe('alpha/acme/chat');
    expect((await streamed(answer.events)).map((event) => event.type)).toEqual(['meta', 'finish']);
  });
});

describe('a whole reply commits once read completely', () => {
  it('a body that breaks while being read fails over', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: ['{"id":"up-1","choices":[{"index":0,"message":{"content":"Hel', { fail: new Error('other side closed') }] });
    transport.script(BETA, okReply('from beta'));
    const answer = await executor.complete(request(), ALL, new AbortController().signal);
    expect(answer.attempt.endpoint.id).toBe('beta/acme/chat');
    expect(answer.failures[0]?.failure).toMatchObject({ kind: 'protocol', retryable: true, providerMessage: 'Unreadable reply from the provider' });
    expect(texts(answer.events)).toEqual(['from beta']);
  });

  it('a complete body that is not a chat reply fails over', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: ['{"id":"up-1","choices":[]}'] });
    transport.script(BETA, okReply('from beta'));
    const answer = await executor.complete(request(), ALL, new AbortController().signal);
    expect(answer.attempt.endpoint.id).toBe('beta/acme/chat');
    expect(answer.failures[0]?.failure).toMatchObject({ kind: 'protocol', providerMessage: 'The provider reply has no message' });
  });

  it('the reply is read to its end before it is handed back', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [chatReply({ content: 'whole' }).slice(0, 20), chatReply({ content: 'whole' }).slice(20)] });
    const answer = await executor.complete(request(), ALL, new AbortController().signal);
    expect(transport.sent[0]?.body.end).toBe('finished');
    expect(texts(answer.events)).toEqual(['whole']);
  });
});

describe('the tool contract (tool_choice requiring a tool)', () => {
  const required = request({ stream: true, tools: TOOLS, toolChoice: 'required' });
  const named = request({ stream: true, tools: TOOLS, toolChoice: { type: 'function', function: { name: 'lookup' } } });

  it('a stream answering prose is failed over to one that calls a tool', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [sse([chunk.text('I would rather talk'), chunk.finish()])] });
    transport.script(BETA, { body: [sse([chunk.tool('lookup'), chunk.finish('tool_calls')])] });
    const answer = await executor.stream(required, ALL, new AbortController().signal);
    expect(answer.attempt.endpoint.id).toBe('beta/acme/chat');
    expect(answer.failures[0]?.failure).toMatchObject({ kind: 'contract', retryable: true });
    expect(answer.failures[0]?.failure.providerMessage).toContain('tool_choice "required"');
    const events = await streamed(answer.events);
    expect(events.find((event) => event.type === 'tool.start')).toMatchObject({ name: 'lookup' });
  });

  it('text before the tool call does not commit the stream; the call does, and the text is kept', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [sse([chunk.text('Let me look. '), chunk.tool('lookup'), chunk.finish('tool_calls')])] });
    const answer = await executor.stream(required, ALL, new AbortController().signal);
    expect(answer.attempt.endpoint.id).toBe('alpha/acme/chat');
    const events = await streamed(answer.events);
    expect(texts(events)).toEqual(['Let me look. ']);
    expect(events.some((event) => event.type === 'tool.start')).toBe(true);
  });

  it('a call to another function than the named one is failed over', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [sse([chunk.tool('other'), chunk.finish('tool_calls')])] });
    transport.script(BETA, { body: [sse([chunk.tool('lookup'), chunk.finish('tool_calls')])] });
    const answer = await executor.stream(named, ALL, new AbortController().signal);
    expect(answer.attempt.endpoint.id).toBe('beta/acme/chat');
    expect(answer.failures[0]?.failure.providerMessage).toContain('naming function lookup');
  });

  it('a whole reply answering prose is failed over; prose everywhere fails every attempt', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, okReply('prose'));
    transport.script(BETA, { body: [chatReply({ content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] }, 'tool_calls')] });
    const answer = await executor.complete({ ...required, stream: false }, ALL, new AbortController().signal);
    expect(answer.attempt.endpoint.id).toBe('beta/acme/chat');
    expect(answer.failures.map((entry) => entry.failure.kind)).toEqual(['contract']);

    const prose = setup();
    for (const url of [ALPHA, BETA, GAMMA]) prose.transport.script(url, okReply('prose'));
    const failures = await failuresOf(prose.executor.complete({ ...required, stream: false }, ALL, new AbortController().signal));
    expect(failures.map((entry) => entry.failure.kind)).toEqual(['contract', 'contract', 'contract']);
  });
});

describe('abort', () => {
  it('a signal aborted before the run tries nothing', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, okReply('never'));
    const controller = new AbortController();
    controller.abort();
    expect(await failuresOf(executor.complete(request(), ALL, controller.signal))).toEqual([]);
    expect(transport.sent).toEqual([]);
  });

  it('an abort during an attempt stops before the next one', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { hang: true });
    transport.script(BETA, okReply('never'));
    const controller = new AbortController();
    const running = failuresOf(executor.complete(request(), ALL, controller.signal));
    await transport.sentCount(1);
    controller.abort();
    const failures = await running;
    expect(failures.map((entry) => entry.attempt.endpoint.id)).toEqual(['alpha/acme/chat']);
    expect(transport.calledUrls).toEqual([ALPHA]);
  });

  it('aborting mid-stream ends the upstream body, and the events end without a clean finish', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [sse([chunk.text('Hel')], { done: false }), { hang: true }, sse([chunk.finish()])] });
    const controller = new AbortController();
    const answer = await executor.stream(request({ stream: true }), ALL, controller.signal);
    const events: CoreEvent[] = [];
    await answer.events.each((read) => {
      events.push(...read);
      if (read.some((event) => event.type === 'text.delta')) controller.abort();
      return undefined;
    });
    expect(transport.sent[0]?.body.end).toBe('aborted');
    expect(events.some((event) => event.type === 'finish')).toBe(false);
    expect(events.at(-1)?.type).toBe('error');
  });

  it('a caller leaving a committed stream at its first content event lets go of the upstream body', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [sse([chunk.text('Hel')], { done: false }), { hang: true }] });
    const answer = await executor.stream(request({ stream: true }), ALL, new AbortController().signal);
    await answer.events.each((read) => (read.some((event) => event.type === 'text.delta') ? STOP : undefined));
    expect(transport.sent[0]?.body.end).toBe('released');
  });
});

describe('relay (speech)', () => {
  const audio = (text: string) => new TextEncoder().encode(text);
  const decode = (chunks: readonly Uint8Array[]) => chunks.map((bytes) => new TextDecoder().decode(bytes)).join('');

  it('the first bytes commit; the whole body follows in order', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { headers: { 'content-type': 'audio/mpeg' }, body: [audio('ID3'), audio('frame1'), audio('frame2')] });
    const answer = await executor.relay(speech, ALL, new AbortController().signal, speechAdapterFor);
    expect(answer.attempt.endpoint.id).toBe('alpha/acme/chat');
    expect(decode(await collect(answer.events))).toBe('ID3frame1frame2');
    expect(transport.sent[0]?.upstream).toMatchObject({ path: '/audio/speech', body: { model: 'alpha-model', input: 'Hello', response_format: 'mp3' } });
  });

  it('an error status, an empty body and a body breaking before its first byte each fail over', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { status: 503, body: ['{"error":{"message":"no voices left"}}'] });
    transport.script(BETA, { body: [] });
    transport.script(GAMMA, { body: [{ fail: new Error('other side closed') }] });
    const failures = await failuresOf(executor.relay(speech, ALL, new AbortController().signal, speechAdapterFor));
    expect(transport.calledUrls).toEqual([ALPHA, BETA, GAMMA]);
    expect(failures.map((entry) => [entry.failure.kind, entry.failure.providerMessage])).toEqual([
      ['http', 'no voices left'],
      ['protocol', 'The provider sent no audio'],
      ['network', 'Provider unreachable: other side closed'],
    ]);
  });

  it('an empty body fails over to the next endpoint, which serves', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [] });
    transport.script(BETA, { body: [audio('RIFF')] });
    const answer = await executor.relay(speech, ALL, new AbortController().signal, speechAdapterFor);
    expect(answer.attempt.endpoint.id).toBe('beta/acme/chat');
    expect(decode(await collect(answer.events))).toBe('RIFF');
  });

  it('a break after the first bytes is the reader’s, with no failover', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [audio('ID3'), { fail: new Error('other side closed') }] });
    transport.script(BETA, { body: [audio('never')] });
    const answer = await executor.relay(speech, ALL, new AbortController().signal, speechAdapterFor);
    const read: Uint8Array[] = [];
    await expect((async () => {
      for await (const bytes of answer.events) read.push(bytes);
    })()).rejects.toThrow('other side closed');
    expect(decode(read)).toBe('ID3');
    expect(transport.calledUrls).toEqual([ALPHA]);
  });

  it('leaving the relay early lets go of the upstream body', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: [audio('ID3'), { hang: true }] });
    const answer = await executor.relay(speech, ALL, new AbortController().signal, speechAdapterFor);
    for await (const bytes of answer.events) if (bytes.length > 0) break;
    expect(transport.sent[0]?.body.end).toBe('released');
  });

  it('an endpoint with no speech adapter fails over without being called', async () => {
    const { transport, executor } = setup();
    transport.script(BETA, { body: [audio('ID3')] });
    const adapters = (attempt: PlannedAttempt) => (attempt.endpoint.id === 'alpha/acme/chat' ? undefined : speechAdapterFor(attempt));
    const answer = await executor.relay(speech, ALL, new AbortController().signal, adapters);
    expect(answer.attempt.endpoint.id).toBe('beta/acme/chat');
    expect(transport.calledUrls).toEqual([BETA]);
    expect(answer.failures[0]?.failure.kind).toBe('protocol');
  });
});

describe('unary calls (embeddings, rerank)', () => {
  const embedAsk: EmbeddingsAsk = { input: ['a', 'b'], count: 2, encoding: 'float', modalities: new Set(['text']) };
  const vectors = JSON.stringify({ id: 'emb-1', data: [{ index: 0, embedding: [1, 0] }, { index: 1, embedding: [0, 1] }], usage: { prompt_tokens: 4 } });

  it('an unreadable reply fails over; the next endpoint’s result is decoded', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: ['{"data": [', { fail: new Error('other side closed') }] });
    transport.script(BETA, { body: [vectors] });
    const answer = await executor.unary(embedAsk, ALL, new AbortController().signal, embeddingsAdapters);
    expect(answer.attempt.endpoint.id).toBe('beta/acme/chat');
    expect(answer.events).toEqual({ upstreamId: 'emb-1', vectors: [[1, 0], [0, 1]], usage: { promptTokens: 4 } });
    expect(answer.failures[0]?.failure).toMatchObject({ kind: 'protocol', providerMessage: 'Unreadable reply from the provider' });
    expect(transport.sent[1]?.upstream.path).toBe('/embeddings');
  });

  it('a reply of the wrong shape and an endpoint not serving the operation fail over', async () => {
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: ['{"data":[{"index":0,"embedding":[1,0]}]}'] });
    transport.script(BETA, { status: 404, body: ['{"error":{"message":"no such route"}}'] });
    transport.script(GAMMA, { body: [vectors] });
    const answer = await executor.unary(embedAsk, ALL, new AbortController().signal, embeddingsAdapters);
    expect(answer.attempt.endpoint.id).toBe('gamma/acme/chat');
    expect(answer.failures.map((entry) => entry.failure.providerMessage)).toEqual([
      'The provider reply is not a embeddings result',
      'the endpoint does not serve embeddings',
    ]);
  });

  it('a rerank reply that is not JSON fails over', async () => {
    const rerankAsk: RerankAsk = { query: 'q', documents: ['x', 'y'], texts: ['x', 'y'], returnDocuments: false };
    const { transport, executor } = setup();
    transport.script(ALPHA, { body: ['<html>bad gateway</html>'] });
    transport.script(BETA, { body: [JSON.stringify({ results: [{ index: 1, relevance_score: 0.9 }, { index: 0, relevance_score: 0.1 }], usage: { total_tokens: 6 } })] });
    const answer = await executor.unary(rerankAsk, ALL, new AbortController().signal, rerankAdapters);
    expect(answer.attempt.endpoint.id).toBe('beta/acme/chat');
    expect(answer.events.usage).toEqual({ totalTokens: 6 });
    expect(answer.failures[0]?.failure.kind).toBe('protocol');
  });
});

describe('endpoint health', () => {
  it('each attempt is recorded once, in order: failures as false, the answer as true, untried ones not at all', async () => {
    const { transport, health, executor } = setup();
    transport.script(ALPHA, { status: 503 });
    transport.script(BETA, okStream('from beta'));
    await executor.stream(request({ stream: true }), ALL, new AbortController().signal);
    expect(health.records).toEqual([['alpha/acme/chat', false], ['beta/acme/chat', true]]);
  });

  it('an attempt with no adapter and a non-retryable failure are recorded too', async () => {
    const { transport, health, executor } = setup();
    transport.script(BETA, { status: 413 });
    const adapters = (attempt: PlannedAttempt) => (attempt.endpoint.id === 'alpha/acme/chat' ? undefined : speechAdapterFor(attempt));
    await failuresOf(executor.relay(speech, ALL, new AbortController().signal, adapters));
    expect(health.records).toEqual([['alpha/acme/chat', false], ['beta/acme/chat', false]]);
  });

  it('an endpoint failing three runs in a row is unhealthy until it answers again', async () => {
    const transport = new ScriptedTransport();
    const health = new MemoryEndpointHealth();
    const executor = new Executor(transport, health);
    transport.script(ALPHA, { status: 500 }, { status: 500 }, { status: 500 }, okReply('back'));
    transport.script(BETA, okReply('from beta'));
    for (let run = 0; run < 3; run += 1) await executor.complete(request(), ALL, new AbortController().signal);
    expect(health.isHealthy('alpha/acme/chat')).toBe(false);
    expect(health.isHealthy('beta/acme/chat')).toBe(true);
    await executor.complete(request(), planOf('alpha'), new AbortController().signal);
    expect(health.isHealthy('alpha/acme/chat')).toBe(true);
  });
});
