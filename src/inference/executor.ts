import type { AbortLike } from '../core/abort.js';
import { isContentEvent, type CoreEvent, type UpstreamFailure } from '../core/events.js';
import type { CoreRequest } from '../core/request.js';
import type { AttemptFailure, Plan, PlannedAttempt } from '../core/plan.js';
import type { EndpointHealth } from '../stats/endpoint-health.js';
import { adapterFor } from '../upstream/registry.js';
import type { SpeechAdapter, UpstreamAdapter, UpstreamRequest } from '../upstream/types.js';
import type { OperationAdapter, OperationAdapterLookup, OperationStreamDecoder, OperationStreamEvent, OperationStreaming } from '../upstream/operation-adapter.js';
import { transportFailure, type UpstreamTransport, type UpstreamResponse } from '../upstream/transport.js';
import { readSseFrames } from '../upstream/sse-frames.js';
import { UpstreamEvents, type StreamReads } from './upstream-events.js';
import { contractFailure, honoursContract, toolContractOf, type ToolContract } from '../core/tool-contract.js';

/** Every planned attempt failed before committing an answer. */
export class AllAttemptsFailed extends Error {
  constructor(readonly failures: AttemptFailure[]) {
    super('every eligible endpoint failed');
  }
}

export interface Answer<Events> {
  attempt: PlannedAttempt;
  events: Events;
  /** Failures of earlier attempts, before this one answered. */
  failures: AttemptFailure[];
  /** When this attempt was sent (epoch ms): its timings count from here. */
  startedAt: number;
}

type AttemptResult<Events> = { ok: true; events: Events } | { ok: false; failure: UpstreamFailure };

/** The executor as the pipeline uses it: one way to run a plan per kind of answer. */
export interface InferenceExecutor {
  stream(request: CoreRequest, plan: Plan, signal: AbortLike): Promise<Answer<StreamReads>>;
  complete(request: CoreRequest, plan: Plan, signal: AbortLike): Promise<Answer<CoreEvent[]>>;
  relay(request: CoreRequest, plan: Plan, signal: AbortLike, adapters: (attempt: PlannedAttempt) => SpeechAdapter | undefined): Promise<Answer<AsyncGenerator<Uint8Array>>>;
  unary<Ask, Result, Piece = never>(ask: Ask, plan: Plan, signal: AbortLike, adapters: OperationAdapterLookup<Ask, Result, Piece>): Promise<Answer<Result>>;
  unaryStream<Ask, Result, Piece>(ask: Ask, plan: Plan, signal: AbortLike, adapters: OperationAdapterLookup<Ask, Result, Piece>): Promise<Answer<AsyncGenerator<OperationStreamEvent<Result, Piece>>>>;
}

/**
 * Runs a plan: tries each attempt in order, fails over on any failure before the answer commits,
 * and hands back the committed answer. A stream commits on its first content event; a whole reply
 * commits once it has been read completely.
 */
export class Executor implements InferenceExecutor {
  constructor(private readonly transport: UpstreamTransport, private readonly health: EndpointHealth) {}

  stream(request: CoreRequest, plan: Plan, signal: AbortLike): Promise<Answer<StreamReads>> {
    return this.run(plan, signal, chatAdapter, (attempt, adapter) => this.tryStream(request, attempt, adapter, signal));
  }

  complete(request: CoreRequest, plan: Plan, signal: AbortLike): Promise<Answer<CoreEvent[]>> {
    return this.run(plan, signal, chatAdapter, (attempt, adapter) => this.tryComplete(request, attempt, adapter, signal));
  }

  /**
   * Relays a binary reply (speech audio) as it arrives. An attempt commits on its first body bytes:
   * an error status, or a body that ends or breaks before any byte, fails over to the next endpoint.
   */
  relay(
    request: CoreRequest,
    plan: Plan,
    signal: AbortLike,
    adapters: (attempt: PlannedAttempt) => SpeechAdapter | undefined,
  ): Promise<Answer<AsyncGenerator<Uint8Array>>> {
    return this.run(plan, signal, adapters, (attempt, adapter) => this.tryRelay(request, attempt, adapter, signal));
  }

  /**
   * Runs a call that is not a conversation (embeddings, rerank): one JSON reply per attempt, read
   * whole and decoded by the operation's adapter for the endpoint's wire format, failing over on
   * any failure exactly as a non-streamed answer does.
   */
  unary<Ask, Result, Piece = never>(ask: Ask, plan: Plan, signal: AbortLike, adapters: OperationAdapterLookup<Ask, Result, Piece>): Promise<Answer<Result>> {
    return this.run(plan, signal, adapters, (attempt, adapter) => this.tryUnary(ask, attempt, adapter, signal));
  }

  /**
   * Runs a call that is not a conversation as an event stream (image generation with `stream`): an
   * attempt whose endpoint streams commits on its first event, pieces (partial pictures) first and
   * the result last; any other attempt is read whole, its result the stream's one event. Fails over
   * before the commit as every call does.
   */
  unaryStream<Ask, Result, Piece>(
    ask: Ask,
    plan: Plan,
    signal: AbortLike,
    adapters: OperationAdapterLookup<Ask, Result, Piece>,
  ): Promise<Answer<AsyncGenerator<OperationStreamEvent<Result, Piece>>>> {
    return this.run(plan, signal, adapters, async (attempt, adapter) => {
      const streaming = adapter.streaming;
      if (streaming?.streams(ask, attempt)) return this.tryOperationStream(ask, attempt, adapter, streaming, signal);
      const whole = await this.tryUnary(ask, attempt, adapter, signal);
      return whole.ok ? { ok: true, events: replayOperation([{ type: 'result', result: whole.events }], undefined) } : whole;
    });
  }

  private async run<Events, Adapter>(
    plan: Plan,
    signal: AbortLike,
    adapterOf: (attempt: PlannedAttempt) => Adapter | undefined,
    tryOne: (attempt: PlannedAttempt, adapter: Adapter) => Promise<AttemptResult<Events>>,
  ): Promise<Answer<Events>> {
    const failures: AttemptFailure[] = [];
    for (const attempt of plan.attempts) {
      if (signal.aborted) break;
      const adapter = adapterOf(attempt);
      const startedAt = Date.now();
      const result = adapter
        ? await tryOne(attempt, adapter)
        : { ok: false as const, failure: unsupportedApi(attempt) };
      this.health.record(attempt.endpoint.id, result.ok);
      if (result.ok) return { attempt, events: result.events, failures, startedAt };
      failures.push({ attempt, failure: result.failure });
      if (!result.failure.retryable) break;
    }
    throw new AllAttemptsFailed(failures);
  }

  private async tryComplete(
    request: CoreRequest,
    attempt: PlannedAttempt,
    adapter: UpstreamAdapter,
    signal: AbortLike,
  ): Promise<AttemptResult<CoreEvent[]>> {
    const read = await this.sendForJson(adapter.buildRequest(request, attempt), attempt, adapter, signal);
    if (!read.ok) return read;
    const events = adapter.decodeReply(read.json);
    const failed = events.find((event) => event.type === 'error');
    if (failed?.type === 'error') return { ok: false, failure: failed.failure };
    const contract = toolContractOf(request);
    if (contract && !events.some((event) => honoursContract(event, contract))) return { ok: false, failure: contractFailure(contract) };
    return { ok: true, events };
  }

  private async tryOperationStream<Ask, Result, Piece>(
    ask: Ask,
    attempt: PlannedAttempt,
    adapter: OperationAdapter<Ask, Result, Piece>,
    streaming: OperationStreaming<Ask, Result, Piece>,
    signal: AbortLike,
  ): Promise<AttemptResult<AsyncGenerator<OperationStreamEvent<Result, Piece>>>> {
    const sent = await this.send(streaming.buildStreamRequest(ask, attempt), attempt, adapter, signal);
    if (!sent.ok) return sent;
    const events = decodeOperationStream(streaming.createStreamDecoder(ask), sent.response);
    const first = await events.next();
    if (first.done) return { ok: false, failure: incompleteStream() };
    if (first.value.type === 'error') {
      await events.return(undefined);
      return { ok: false, failure: first.value.failure };
    }
    return { ok: true, events: replayOperation([first.value], events) };
  }

  private async tryUnary<Ask, Result, Piece>(
    ask: Ask,
    attempt: PlannedAttempt,
    adapter: OperationAdapter<Ask, Result, Piece>,
    signal: AbortLike,
  ): Promise<AttemptResult<Result>> {
    const read = await this.sendForJson(adapter.buildRequest(ask, attempt), attempt, adapter, signal);
    if (!read.ok) return read;
    const decoded = adapter.decodeReply(read.json, ask);
    return decoded.ok ? { ok: true, events: decoded.result } : decoded;
  }

  private async tryStream(
    request: CoreRequest,
    attempt: PlannedAttempt,
    adapter: UpstreamAdapter,
    signal: AbortLike,
  ): Promise<AttemptResult<StreamReads>> {
    const sent = await this.send(adapter.buildRequest(request, attempt), attempt, adapter, signal);
    if (!sent.ok) return sent;
    const reads = new UpstreamEvents(adapter, sent.response.body);
    const contract = toolContractOf(request);
    const buffered: CoreEvent[] = [];
    let committed = false;
    while (!committed) {
      const next = await reads.next();
      if (next.done) {
        if (!contract) break;
        sent.response.body.destroy();
        return { ok: false, failure: contractFailure(contract) };
      }
      // the rest of the read that committed goes with it, to be judged as the answer's
      for (const event of next.value) {
        if (!committed) {
          const failure = event.type === 'error' ? event.failure : contract && event.type === 'finish' ? contractFailure(contract) : undefined;
          if (failure) {
            sent.response.body.destroy();
            return { ok: false, failure };
          }
          committed = commits(event, contract);
        }
        buffered.push(event);
      }
    }
    reads.unread(buffered);
    return { ok: true, events: reads };
  }

  private async tryRelay(
    request: CoreRequest,
    attempt: PlannedAttempt,
    adapter: SpeechAdapter,
    signal: AbortLike,
  ): Promise<AttemptResult<AsyncGenerator<Uint8Array>>> {
    const sent = await this.send(adapter.buildRequest(request, attempt), attempt, adapter, signal);
    if (!sent.ok) return sent;
    const bytes = sent.response.body[Symbol.asyncIterator]();
    let first: IteratorResult<Uint8Array>;
    try {
      first = await bytes.next();
    } catch (error) {
      return { ok: false, failure: transportFailure(error) };
    }
    if (first.done) return { ok: false, failure: { kind: 'protocol', retryable: true, providerMessage: 'The provider sent no audio' } };
    return { ok: true, events: relayFrom(first.value, bytes) };
  }

  /** Sends and reads the whole reply as JSON; an unreadable body is a protocol failure. */
  private async sendForJson(
    upstream: UpstreamRequest,
    attempt: PlannedAttempt,
    errors: ErrorDecoder,
    signal: AbortLike,
  ): Promise<{ ok: true; json: unknown } | { ok: false; failure: UpstreamFailure }> {
    const sent = await this.send(upstream, attempt, errors, signal);
    if (!sent.ok) return sent;
    try {
      return { ok: true, json: await sent.response.body.json() };
    } catch (error) {
      return { ok: false, failure: { ...transportFailure(error), kind: 'protocol', providerMessage: 'Unreadable reply from the provider' } };
    }
  }

  private async send(
    upstream: UpstreamRequest,
    attempt: PlannedAttempt,
    errors: ErrorDecoder,
    signal: AbortLike,
  ): Promise<{ ok: true; response: UpstreamResponse } | { ok: false; failure: UpstreamFailure }> {
    try {
      const response = await this.transport.send(attempt.endpoint.provider.baseUrl, upstream, signal);
      if (response.status < 300) return { ok: true, response };
      const text = await response.body.text().catch(() => '');
      return { ok: false, failure: errors.decodeError(response.status, text, response.headers) };
    } catch (error) {
      return { ok: false, failure: transportFailure(error) };
    }
  }
}

type ErrorDecoder = Pick<UpstreamAdapter, 'decodeError'>;

function chatAdapter(attempt: PlannedAttempt): UpstreamAdapter | undefined {
  return adapterFor(attempt.endpoint.provider.api);
}

async function* decodeOperationStream<Result, Piece>(
  decoder: OperationStreamDecoder<Result, Piece>,
  response: UpstreamResponse,
): AsyncGenerator<OperationStreamEvent<Result, Piece>> {
  try {
    for await (const frame of readSseFrames(response.body)) {
      for (const event of decoder.frame(frame.data, frame.event)) {
        yield event;
        if (event.type === 'error') return;
      }
    }
  } catch (error) {
    yield { type: 'error', failure: transportFailure(error) };
    return;
  }
  yield* decoder.end();
}

/** The events read before the commit, then the rest (if any); leaving early releases the upstream body. */
async function* replayOperation<Event>(first: Event[], rest: AsyncGenerator<Event> | undefined): AsyncGenerator<Event> {
  try {
    yield* first;
    if (rest) yield* rest;
  } finally {
    await rest?.return(undefined);
  }
}

function incompleteStream(): UpstreamFailure {
  return { kind: 'protocol', retryable: true, providerMessage: 'The provider\'s stream ended before any event' };
}

/** The committed body: its first bytes, then the rest; leaving early releases the upstream connection. */
async function* relayFrom(first: Uint8Array, rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  let finished = false;
  try {
    yield first;
    for (;;) {
      const next = await rest.next();
      if (next.done) {
        finished = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!finished) await rest.return?.().catch(() => undefined);
  }
}

/**
 * The stream commits on its first content event; under a tool contract only the required tool call
 * commits it, so an endpoint answering with prose can still be failed over.
 */
function commits(event: CoreEvent, contract: ToolContract | undefined): boolean {
  if (contract) return honoursContract(event, contract);
  return isContentEvent(event) || event.type === 'finish';
}

function unsupportedApi(attempt: PlannedAttempt): UpstreamFailure {
  return {
    kind: 'protocol',
    retryable: true,
    providerMessage: `No adapter for the ${attempt.endpoint.provider.api} wire format`,
  };
}
