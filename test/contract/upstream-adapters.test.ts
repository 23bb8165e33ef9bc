import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CoreEvent } from '../../src/core/events.js';
import type { CoreRequest } from '../../src/core/request.js';
import type { UpstreamApi } from '../../src/catalogue/types.js';
import { adapterFor } from '../../src/upstream/registry.js';
import type { UpstreamAdapter, UpstreamRequest } from '../../src/upstream/types.js';
import { readSseFrames } from '../../src/upstream/sse-frames.js';
import { Transport, transportFailure } from '../../src/upstream/transport.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { startSimulator } from '../../src/sim/server.js';
import { SETTERS } from '../../src/sim/behaviour-keys.js';
import { attemptAt, coreRequest } from '../unit/upstream/anthropic/fixture.js';
import { ADAPTER_CASES, Expect, PINNED_NOW_MS, QUESTION, type AdapterCase, type Wire } from './expected-core-events.js';

/**
 * One adapter suite for every upstream wire: each simulator behaviour is asked of the simulator
 * over each wire, through that wire's adapter, streamed and whole. The core event sequence must be
 * exactly the one expected-core-events.ts states for it, and the two wires must agree apart from
 * what they name differently (call ids, the reasoning format). Skipped on the Anthropic wire:
 * behaviours it has no counterpart for (pictures, audio, call-ready dispatch).
 */
const APIS: readonly Wire[] = ['openai', 'anthropic'];

/** Asked of the Anthropic wire alone (see the end of the file). */
const OVERLOADED_MODEL = 'sim;error=529';

let sim: RunningSimulator;
const transport = new Transport();

beforeAll(async () => {
  // The simulator stamps replies with the clock (generated audio expires an hour later): pinned.
  vi.useFakeTimers({ toFake: ['Date'], now: PINNED_NOW_MS });
  sim = await startSimulator({ port: 0 });
});

afterAll(async () => {
  vi.useRealTimers();
  await transport.close();
  await sim.close();
});

async function run(api: UpstreamApi, request: CoreRequest, upstreamModel: string): Promise<CoreEvent[]> {
  return (await exchange(api, request, upstreamModel)).events;
}

/** Asks the simulator over one wire through its adapter; the events, and the body the adapter sent. */
async function exchange(api: UpstreamApi, request: CoreRequest, upstreamModel: string): Promise<{ events: CoreEvent[]; sentBody: unknown }> {
  const adapter = adapterFor(api);
  if (!adapter) throw new Error(`no adapter for ${api}`);
  const attempt = attemptAt({ upstream_model: upstreamModel, supported_parameters: ['max_tokens', 'tools', 'tool_choice', 'reasoning'] }, { ceiling: request.maxTokens ?? 200 });
  const upstream = adapter.buildRequest(request, attempt);
  return { events: await decoded(adapter, request, upstream), sentBody: upstream.body };
}

async function decoded(adapter: UpstreamAdapter, request: CoreRequest, upstream: UpstreamRequest): Promise<CoreEvent[]> {
  try {
    const response = await transport.send(`${sim.url}/v1`, upstream, AbortSignal.timeout(10_000));
    if (response.status >= 300) return [{ type: 'error', failure: adapter.decodeError(response.status, await response.body.text(), response.headers) }];
    if (!request.stream) return adapter.decodeReply(await response.body.json().catch(() => undefined));
    const decoder = adapter.createStreamDecoder();
    const events: CoreEvent[] = [];
    try {
      for await (const frame of readSseFrames(response.body)) {
        events.push(...decoder.frame(frame.data, frame.event));
        if (events.some((event) => event.type === 'error')) return events;
      }
    } catch {
      // A dropped connection ends the stream; the decoder says whether the answer was complete.
    }
    return [...events, ...decoder.end()];
  } catch (error) {
    return [{ type: 'error', failure: transportFailure(error) }];
  }
}

/**
 * What both wires must agree on: ids, formats and raw texts are the wires' own, and a signature
 * may ride on the last thinking fragment (OpenAI) or on a fragment of its own (Anthropic's
 * `signature_delta`), so signatures are compared by count apart from the text.
 */
function comparable(events: CoreEvent[]): unknown[] {
  return events.filter((event) => !(event.type === 'reasoning.delta' && event.text === '')).map((event) => {
    switch (event.type) {
      case 'meta':
        return { type: 'meta' };
      case 'tool.start':
        return { ...event, id: 'ID' };
      case 'reasoning.delta': {
        const { format: _format, signature: _signature, ...rest } = event;
        return rest;
      }
      case 'finish':
        return { type: 'finish', reason: event.reason };
      case 'error':
        return { type: 'error', kind: event.failure.kind, status: event.failure.status === 529 ? 503 : event.failure.status, retryable: event.failure.retryable };
      default:
        return event;
    }
  });
}

/**
 * The simulator numbers its requests and derives reply, call and audio ids from the number, which
 * depends on the order tests run: it reads as `<n>` (the calls after a reply's first keep their `_1`, `_2`…).
 */
function simSequenceNormalised(events: CoreEvent[]): CoreEvent[] {
  const normalised = (id: string | undefined) => id?.replace(/sim\d+(?=(_\d+)?$)/, 'sim<n>');
  return events.map((event) => {
    switch (event.type) {
      case 'meta':
        return { ...event, upstreamId: normalised(event.upstreamId) };
      case 'tool.start':
      case 'tool.dispatch':
        return { ...event, id: normalised(event.id) ?? '' };
      case 'audio.delta':
        return event.id === undefined ? event : { ...event, id: normalised(event.id) };
      default:
        return event;
    }
  });
}

function requestOf(testCase: AdapterCase, stream: boolean): CoreRequest {
  return coreRequest({ stream, messages: [{ role: 'user', content: QUESTION }], ...testCase.request });
}

const MODES = [false, true].map((stream) => ({ stream, cases: ADAPTER_CASES.filter((testCase) => stream || testCase.onlyStreamed === undefined) }));

describe.each(MODES)('each simulator behaviour gives its exact core events over each wire (stream: $stream)', ({ stream, cases }) => {
  const cells = cases.flatMap((testCase) => APIS.map((wire) => ({ testCase, wire, label: `${testCase.name} over ${wire}` })));
  for (const { testCase, wire } of cells.filter((cell) => cell.testCase.skip?.[cell.wire] !== undefined)) {
    it.skip(`${testCase.name} over ${wire}: ${testCase.skip?.[wire] ?? ''}`, () => undefined);
  }
  it.each(cells.filter((cell) => cell.testCase.skip?.[cell.wire] === undefined))('$label', async ({ testCase, wire }) => {
    const { events, sentBody } = await exchange(wire, requestOf(testCase, stream), testCase.model);
    expect(simSequenceNormalised(events)).toEqual(testCase.expected(new Expect(wire, stream, sentBody)));
  });
});

describe.each(MODES)('upstream adapters agree over every wire (stream: $stream)', ({ stream, cases }) => {
  const spokenOnBoth = cases.filter((testCase) => testCase.skip === undefined);
  for (const testCase of spokenOnBoth.filter((candidate) => candidate.wiresDiffer !== undefined)) {
    it.skip(`${testCase.name}: ${testCase.wiresDiffer ?? ''}`, () => undefined);
  }
  it.each(spokenOnBoth.filter((testCase) => testCase.wiresDiffer === undefined))('$name', async (testCase) => {
    const core = requestOf(testCase, stream);
    const [openai, anthropic] = await Promise.all(APIS.map((api) => run(api, core, testCase.model)));
    expect(comparable(anthropic ?? [])).toEqual(comparable(openai ?? []));
    expect(openai?.length).toBeGreaterThan(0);
    const signed = (events: CoreEvent[] | undefined) => (events ?? []).filter((event) => event.type === 'reasoning.delta' && event.signature !== undefined).length;
    expect(signed(anthropic)).toBe(signed(openai));
  });
});

describe('the adapter suite itself', () => {
  it('every simulator behaviour key is asked of the adapters by some case', () => {
    const models = [...ADAPTER_CASES.map((testCase) => testCase.model), OVERLOADED_MODEL];
    const asked = new Set(models.flatMap((model) => model.split(';').slice(1).map((item) => item.split('=')[0])));
    expect(Object.keys(SETTERS).filter((key) => !asked.has(key))).toEqual([]);
  });
});

describe('where the wires differ by design', () => {
  it('an overloaded provider is 529 on the Anthropic wire and keeps its error type', async () => {
    const [event] = await run('anthropic', coreRequest(), OVERLOADED_MODEL);
    expect(event).toMatchObject({ type: 'error', failure: { status: 529, providerCode: 'overloaded_error', retryable: true } });
  });
});
