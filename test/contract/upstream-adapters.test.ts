import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/core/events.js';
import type { CoreRequest } from '../../src/core/request.js';
import type { UpstreamApi } from '../../src/catalogue/types.js';
import { adapterFor } from '../../src/upstream/registry.js';
import { readSseFrames } from '../../src/upstream/sse-frames.js';
import { Transport, transportFailure } from '../../src/upstream/transport.js';
import type { RunningSimulator } from '../../src/sim/server.js';
import { startSimulator } from '../../src/sim/server.js';
import { attemptAt, coreRequest } from '../unit/upstream/anthropic/fixture.js';

/**
 * One adapter suite for every upstream wire: each simulator behaviour is asked of the simulator
 * over each wire, through that wire's adapter, and the core event sequences must agree, apart from
 * what the wires name differently (call ids, the reasoning format). Skipped on the Anthropic wire:
 * behaviours it has no counterpart for (pictures, audio, call-ready dispatch).
 */
const APIS: readonly UpstreamApi[] = ['openai', 'anthropic'];

let sim: RunningSimulator;
const transport = new Transport();

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});

afterAll(async () => {
  await transport.close();
  await sim.close();
});

async function run(api: UpstreamApi, request: CoreRequest, upstreamModel: string): Promise<CoreEvent[]> {
  const adapter = adapterFor(api);
  if (!adapter) throw new Error(`no adapter for ${api}`);
  const attempt = attemptAt({ upstream_model: upstreamModel, supported_parameters: ['max_tokens', 'tools', 'tool_choice', 'reasoning'] }, { ceiling: request.maxTokens ?? 200 });
  const upstream = adapter.buildRequest(request, attempt);
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

const WEATHER = { type: 'function' as const, function: { name: 'weather', parameters: { type: 'object', properties: { query: { type: 'string' } } } } };

interface Case {
  name: string;
  model: string;
  request?: Partial<CoreRequest>;
}

const CASES: readonly Case[] = [
  { name: 'text', model: 'sim;tokens=5' },
  { name: 'a ceiling below the answer', model: 'sim;tokens=9', request: { maxTokens: 4 } },
  { name: 'a tool call', model: 'sim;tools', request: { tools: [WEATHER], toolChoice: 'required' } },
  { name: 'prose despite tools', model: 'sim;tools;prose;tokens=3', request: { tools: [WEATHER] } },
  { name: 'reasoning, signed, then encrypted', model: 'sim;reasoning=3;encrypted;tokens=2', request: { reasoning: { effort: 'high' }, maxTokens: 4000 } },
  { name: 'reasoning turned off', model: 'sim;reasoning=3;tokens=2', request: { reasoning: { effort: 'none' } } },
  { name: 'no usage', model: 'sim;no_usage;tokens=2' },
  { name: 'a stop sequence', model: 'sim;tokens=9', request: { parameters: { stop: [' simulator'] } } },
  {
    name: 'a picture in the prompt',
    model: 'sim;tokens=3',
    request: {
      messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }],
    },
  },
  { name: 'cache reads and writes', model: 'sim;cached=2;cache_write=1;tokens=2' },
  { name: 'an error before the answer', model: 'sim;error=503' },
  { name: 'a failure after two chunks', model: 'sim;tokens=5;fail_after=2' },
  { name: 'a disconnect after two chunks', model: 'sim;tokens=5;disconnect_after=2' },
];

describe.each([false, true])('upstream adapters agree over every wire (stream: %s)', (stream) => {
  it.each(CASES)('$name', async ({ model, request }) => {
    const core = coreRequest({ stream, messages: [{ role: 'user', content: 'weather in Paris today' }], ...request });
    const [openai, anthropic] = await Promise.all(APIS.map((api) => run(api, core, model)));
    expect(comparable(anthropic ?? [])).toEqual(comparable(openai ?? []));
    expect(openai?.length).toBeGreaterThan(0);
    const signed = (events: CoreEvent[] | undefined) => (events ?? []).filter((event) => event.type === 'reasoning.delta' && event.signature !== undefined).length;
    expect(signed(anthropic)).toBe(signed(openai));
  });
});

describe('where the wires differ by design', () => {
  it('an overloaded provider is 529 on the Anthropic wire and keeps its error type', async () => {
    const [event] = await run('anthropic', coreRequest(), 'sim;error=529');
    expect(event).toMatchObject({ type: 'error', failure: { status: 529, providerCode: 'overloaded_error', retryable: true } });
  });

  it('a refusal is refusal text on the OpenAI wire and text with a content_filter finish on the Anthropic wire', async () => {
    const [openai, anthropic] = await Promise.all(APIS.map((api) => run(api, coreRequest(), 'sim;refusal')));
    const said = (events: CoreEvent[] | undefined) => (events ?? []).flatMap((event) => (event.type === 'text.delta' || event.type === 'refusal.delta' ? [event.text] : [])).join('');
    expect(said(anthropic)).toBe(said(openai));
    expect(anthropic?.find((event) => event.type === 'finish')).toEqual({ type: 'finish', reason: 'content_filter', raw: 'refusal' });
  });
});
