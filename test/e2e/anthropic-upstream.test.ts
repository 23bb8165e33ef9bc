import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { readSse, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

/** Cheaper than the default prices, so that endpoint is tried first. */
const CHEAP = { prompt: '0.0000001', completion: '0.0000001' };
const PRICES = { prompt: '0.0000003', completion: '0.0000017', input_cache_read: '0.00000003', input_cache_write: '0.000000375' };

interface ReplyUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number };
  cost: number;
}

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/claude', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude', max_completion_tokens: 4096, pricing: PRICES }] },
      { id: 'acme/gpt', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', pricing: PRICES }] },
      { id: 'acme/claude-cached', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude;cached=3;cache_write=2', pricing: PRICES }] },
      {
        id: 'acme/claude-failover',
        endpoints: [
          { provider: 'sim-anthropic', upstream_model: 'claude;error=529', pricing: CHEAP },
          { provider: 'sim-anthropic-b', upstream_model: 'claude;tokens=4' },
        ],
      },
      { id: 'acme/claude-overloaded', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude;error=529' }] },
      { id: 'acme/claude-quiet', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude;no_usage' }] },
    ],
  });
});

afterAll(async () => harness.close());

function lastUpstream(): { path: string; headers: Record<string, string>; body: Record<string, unknown> } {
  const last = harness.sim.requests().at(-1);
  if (!last) throw new Error('the simulator received nothing');
  return { path: last.path, headers: last.headers, body: last.body as Record<string, unknown> };
}

function exactCost(usage: ReplyUsage): string {
  const cached = BigInt(usage.prompt_tokens_details?.cached_tokens ?? 0);
  const written = BigInt(usage.prompt_tokens_details?.cache_write_tokens ?? 0);
  const prompt = BigInt(usage.prompt_tokens ?? 0) - cached - written;
  return formatUsd(parseUsd(PRICES.prompt) * prompt + parseUsd(PRICES.input_cache_read) * cached
    + parseUsd(PRICES.input_cache_write) * written + parseUsd(PRICES.completion) * BigInt(usage.completion_tokens ?? 0));
}

const CONVERSATION = [
  { role: 'system' as const, content: 'Be brief.' },
  { role: 'user' as const, content: 'Hello there [[sim tokens=5]]' },
];

describe('chat completions served by an api: anthropic endpoint', () => {
  it('a non-streamed reply is translated from the Messages wire, with provider, finish and native finish', async () => {
    const { data: reply, response } = await harness.client.chat.completions
      .create({ model: 'acme/claude', messages: CONVERSATION, temperature: 0.5, stop: ['END'] })
      .withResponse();
    expect(reply.choices[0]?.message.content).toBe('Hello from the provider simulator');
    expect(reply.choices[0]?.finish_reason).toBe('stop');
    expect((reply.choices[0] as unknown as { native_finish_reason: string }).native_finish_reason).toBe('end_turn');
    expect(response.headers.get('x-provider-name')).toBe('Sim Anthropic');
    const upstream = lastUpstream();
    expect(upstream.path).toBe('/v1/messages');
    expect(upstream.headers['anthropic-version']).toBe('2023-06-01');
    expect(upstream.body).toMatchObject({
      model: 'claude',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello there [[sim tokens=5]]' }] }],
      temperature: 0.5,
      stop_sequences: ['END'],
    });
    expect(upstream.body).not.toHaveProperty('stop');
  });

  it('max_tokens is always sent: the asked ceiling, else all the endpoint can emit', async () => {
    await harness.client.chat.completions.create({ model: 'acme/claude', messages: CONVERSATION, max_tokens: 77 });
    expect(lastUpstream().body.max_tokens).toBe(77);
    await harness.client.chat.completions.create({ model: 'acme/claude', messages: CONVERSATION });
    expect(lastUpstream().body.max_tokens).toBe(4096);
  });

  it('usage counts match what the OpenAI wire reports for the same conversation, at the exact cost', async () => {
    const claude = await harness.client.chat.completions.create({ model: 'acme/claude', messages: CONVERSATION });
    const gpt = await harness.client.chat.completions.create({ model: 'acme/gpt', messages: CONVERSATION });
    const usage = claude.usage as unknown as ReplyUsage;
    expect(usage.prompt_tokens).toBe(gpt.usage?.prompt_tokens);
    expect(usage.completion_tokens).toBe(5);
    expect(usage.total_tokens).toBe((usage.prompt_tokens ?? 0) + 5);
    expect(usage.cost).toBe(Number(exactCost(usage)));
    const record = await send(harness, { path: `/generation?id=${claude.id}` });
    expect((record.json as { data: { cost_usd: string } }).data.cost_usd).toBe(exactCost(usage));
  });

  it('cache reads and writes are added back into prompt_tokens and billed at their own prices', async () => {
    const plain = await harness.client.chat.completions.create({ model: 'acme/claude', messages: CONVERSATION });
    const reply = await harness.client.chat.completions.create({ model: 'acme/claude-cached', messages: CONVERSATION });
    const usage = reply.usage as unknown as ReplyUsage;
    expect(usage.prompt_tokens).toBe(plain.usage?.prompt_tokens);
    expect(usage.prompt_tokens_details).toEqual({ cached_tokens: 3, cache_write_tokens: 2 });
    expect(usage.cost).toBe(Number(exactCost(usage)));
    const record = await send(harness, { path: `/generation?id=${reply.id}` });
    expect((record.json as { data: { cost_usd: string } }).data.cost_usd).toBe(exactCost(usage));
  });

  it('a streamed reply arrives as chat chunks, a finish, the usage chunk with cost, and [DONE]', async () => {
    const stream = await harness.client.chat.completions.create({ model: 'acme/claude', messages: CONVERSATION, stream: true });
    let text = '';
    let finish: string | null | undefined;
    let usage: ReplyUsage | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
      if (chunk.usage) usage = chunk.usage as unknown as ReplyUsage;
    }
    expect(text).toBe('Hello from the provider simulator');
    expect(finish).toBe('stop');
    expect(usage?.completion_tokens).toBe(5);
    expect(usage?.cost).toBe(Number(exactCost(usage as ReplyUsage)));
    expect(lastUpstream().body.stream).toBe(true);
    expect(lastUpstream().body).not.toHaveProperty('stream_options');
  });

  it('honoured names a declared member the Messages wire has no counterpart for as not applied', async () => {
    const reply = await send(harness, {
      path: '/chat/completions',
      body: { model: 'acme/claude', stream: true, seed: 7, temperature: 0.2, messages: CONVERSATION },
    });
    const chunks = readSse(reply.text).data.filter((data) => data !== '[DONE]').map((data) => JSON.parse(data) as { honoured?: Record<string, boolean> });
    expect(chunks.at(-1)?.honoured).toEqual({ seed: false, temperature: true });
    expect(lastUpstream().body).not.toHaveProperty('seed');
  });

  it('a reply without usage omits the counts', async () => {
    const reply = await harness.client.chat.completions.create({ model: 'acme/claude-quiet', messages: CONVERSATION });
    expect(reply.usage).not.toHaveProperty('prompt_tokens');
    expect(reply.usage).not.toHaveProperty('completion_tokens');
  });
});

describe('anthropic provider errors', () => {
  it('an endpoint answering 529 overloaded fails over to the next endpoint', async () => {
    harness.sim.clearRequests();
    const { data: reply, response } = await harness.client.chat.completions
      .create({ model: 'acme/claude-failover', messages: [{ role: 'user', content: 'hi' }] })
      .withResponse();
    expect(reply.choices[0]?.message.content).toBe('Hello from the provider');
    expect(response.headers.get('x-provider-name')).toBe('Sim Anthropic B');
    expect(harness.sim.requests().map((request) => (request.body as { model: string }).model)).toEqual(['claude;error=529', 'claude;tokens=4']);
  });

  it('a stream fails over from the overloaded endpoint before it commits', async () => {
    harness.sim.clearRequests();
    const stream = await harness.client.chat.completions.create({ model: 'acme/claude-failover', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello from the provider');
    expect(harness.sim.requests()).toHaveLength(2);
  });

  it('when no endpoint is left, the overloaded error reaches the caller in the shared envelope', async () => {
    const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/claude-overloaded', messages: [{ role: 'user', content: 'hi' }] } });
    expect(reply.status).toBe(502);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.metadata).toMatchObject({
      error_type: 'provider_error',
      provider_name: 'Sim Anthropic',
      provider_status: 529,
      provider_message: 'Overloaded',
      provider_code: 'overloaded_error',
      raw: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }),
    });
  });

  it('an error event after the stream committed ends it in-band with the event data as raw', async () => {
    const reply = await send(harness, {
      path: '/chat/completions',
      body: { model: 'acme/claude', stream: true, messages: [{ role: 'user', content: 'hi [[sim tokens=5 fail_after=2]]' }] },
    });
    const { data } = readSse(reply.text);
    expect(data.at(-1)).toBe('[DONE]');
    const last = JSON.parse(data.at(-2) ?? '{}') as { error?: { metadata: Record<string, unknown> }; choices: Array<{ finish_reason: string }> };
    expect(last.choices[0]?.finish_reason).toBe('error');
    expect(last.error?.metadata).toMatchObject({
      provider_status: 500,
      provider_code: 'api_error',
      provider_message: 'simulated mid-stream failure',
      raw: JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'simulated mid-stream failure' } }),
    });
  });

  it('a provider closing mid-answer without message_delta gives an in-band 502, billed for what was generated', async () => {
    const reply = await send(harness, {
      path: '/chat/completions',
      body: { model: 'acme/claude', stream: true, messages: [{ role: 'user', content: 'hi [[sim tokens=5 disconnect_after=2]]' }] },
    });
    const chunks = readSse(reply.text).data.filter((data) => data !== '[DONE]').map((data) => JSON.parse(data) as {
      id: string; error?: { code: number; message: string; metadata: Record<string, unknown> }; choices: Array<{ delta: { content?: string } }>;
    });
    const last = chunks.at(-1);
    expect(last?.error?.code).toBe(502);
    expect(last?.error?.message).toMatch(/stream closed before the answer finished/i);
    expect(last?.error?.metadata).not.toHaveProperty('raw');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello from');
    const record = await send(harness, { path: `/generation?id=${last?.id ?? ''}` });
    const data = (record.json as { data: { tokens_completion: number | null } }).data;
    expect(data.tokens_completion).toBeGreaterThan(0);
  });
});
