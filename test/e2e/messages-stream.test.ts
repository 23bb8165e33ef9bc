import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { parseUsd } from '../../src/billing/money.js';
import { accountMoney, send, startHarness, type Harness } from './harness.js';
import { anthropicClient, type MessagesErrorBody } from './messages-client.js';

interface StreamEvent {
  event: string;
  data: Record<string, unknown> & { type: string };
}

let harness: Harness;
let client: Anthropic;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
      { id: 'acme/failing', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;fail_after=2' }] },
      { id: 'acme/speaker', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;audio=1' }] },
      { id: 'acme/busy', endpoints: [{ provider: 'sim-c', upstream_model: 'chat;error=429;retry_after=7' }] },
      { id: 'acme/busy-slow', endpoints: [{ provider: 'sim-c', upstream_model: 'chat;error=429;ttft=300' }] },
      { id: 'acme/slow', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;ttft=300' }] },
    ],
    settings: { keepAliveMs: 60 },
  });
  client = anthropicClient(harness);
});

afterAll(async () => harness.close());

function streamBody(content: string, model = 'acme/chat', extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model, max_tokens: 256, stream: true, messages: [{ role: 'user', content }], ...extra };
}

/** The named events of a raw messages stream, in order; comment lines are skipped. */
function readEvents(text: string): StreamEvent[] {
  return text.split('\n\n').filter((frame) => frame.trim() !== '' && !frame.startsWith(':')).map((frame) => {
    const lines = frame.split('\n');
    const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length) ?? '';
    const data = lines.find((line) => line.startsWith('data: '))?.slice('data: '.length) ?? '{}';
    return { event, data: JSON.parse(data) as StreamEvent['data'] };
  });
}

async function rawStream(body: Record<string, unknown>): Promise<{ status: number; events: StreamEvent[]; text: string; headers: Headers }> {
  const reply = await send(harness, { path: '/messages', body });
  return { status: reply.status, events: readEvents(reply.text), text: reply.text, headers: reply.headers };
}

describe('messages stream (official Anthropic client)', () => {
  it('messages.stream assembles the text and finalMessage carries the verdict and counts', async () => {
    const stream = client.messages.stream({ model: 'acme/chat', max_tokens: 256, messages: [{ role: 'user', content: 'Hello [[sim tokens=5]]' }] });
    let text = '';
    stream.on('text', (delta) => {
      text += delta;
    });
    const final = await stream.finalMessage();
    expect(text).toBe('Hello from the provider simulator');
    expect(final.content).toEqual([{ type: 'text', text: 'Hello from the provider simulator' }]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBe(5);
    expect(final.usage.input_tokens).toBeGreaterThan(0);
  });

  it('thinking streams as thinking and signature deltas', async () => {
    const final = await client.messages.stream({
      model: 'acme/chat',
      max_tokens: 256,
      messages: [{ role: 'user', content: 'Think [[sim tokens=2 reasoning=4]]' }],
    }).finalMessage();
    expect(final.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    const thinking = final.content[0];
    expect(thinking?.type === 'thinking' && thinking.thinking.length > 0).toBe(true);
    expect(thinking?.type === 'thinking' && thinking.signature).toMatch(/^sig-/);
  });

  it('keep-alive comments before a slow first token are ignored by the client', async () => {
    const raw = await send(harness, { path: '/messages', body: streamBody('Slow [[sim tokens=2]]', 'acme/slow') });
    expect(raw.text.startsWith(':')).toBe(true);
    const final = await client.messages.stream({ model: 'acme/slow', max_tokens: 32, messages: [{ role: 'user', content: 'Slow [[sim tokens=2]]' }] }).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Hello from' }]);
  });
});

describe('messages stream events', () => {
  it('open with message_start naming both counts unreported and close with message_delta (clearing the marker) then message_stop', async () => {
    const { status, events, headers } = await rawStream(streamBody('Hello [[sim tokens=3]]'));
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(events.map((event) => event.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const event of events) expect(event.data.type).toBe(event.event);
    const start = events[0]?.data.message as Record<string, unknown>;
    expect(start).toMatchObject({ type: 'message', role: 'assistant', model: 'acme/chat', content: [], stop_reason: null, stop_sequence: null });
    expect(start.usage).toEqual({ input_tokens: 0, output_tokens: 0, service: { unreported: ['input_tokens', 'output_tokens'] } });
    const delta = events[6]?.data as unknown as { delta: unknown; usage: { input_tokens: number; output_tokens: number; service?: unknown } };
    expect(delta.delta).toEqual({ stop_reason: 'end_turn', stop_sequence: null });
    expect(delta.usage.output_tokens).toBe(3);
    expect(delta.usage.input_tokens).toBeGreaterThan(0);
    expect(delta.usage.service).toEqual({ unreported: [] });
  });

  it('message_delta carries honoured beside usage, under the request member names', async () => {
    const { events } = await rawStream(streamBody('Hello [[sim tokens=2]]', 'acme/chat', {
      temperature: 0.3,
      top_k: 5,
      stop_sequences: ['zzz'],
      thinking: { type: 'enabled', budget_tokens: 1024 },
    }));
    const delta = events.find((event) => event.event === 'message_delta')?.data;
    expect(delta?.honoured).toEqual({ temperature: true, stop_sequences: true, top_k: false, thinking: false });
  });

  it('message_delta has no honoured member when the request carried nothing to judge', async () => {
    const { events } = await rawStream(streamBody('Hello [[sim tokens=2]]'));
    expect(events.find((event) => event.event === 'message_delta')?.data).not.toHaveProperty('honoured');
  });

  it('a picture arrives whole: one start carrying it, then its stop', async () => {
    const { events } = await rawStream(streamBody('Draw [[sim tokens=1 image=2x2]]'));
    const imageStart = events.findIndex((event) => (event.data.content_block as { type?: string } | undefined)?.type === 'image');
    expect(imageStart).toBeGreaterThan(0);
    const start = events[imageStart]?.data as unknown as { index: number; content_block: { source: { type: string; media_type: string } } };
    expect(start.content_block.source).toMatchObject({ type: 'base64', media_type: 'image/png' });
    expect(events[imageStart + 1]).toEqual({ event: 'content_block_stop', data: { type: 'content_block_stop', index: start.index } });
    expect(events.some((event) => event.event === 'content_block_delta' && event.data.index === start.index)).toBe(false);
  });

  it('block indexes count from 0 in the order blocks open', async () => {
    const { events } = await rawStream(streamBody('Think [[sim tokens=2 reasoning=2 image=1x1]]'));
    const starts = events.filter((event) => event.event === 'content_block_start').map((event) => event.data.index);
    expect(starts).toEqual([0, 1, 2]);
  });

  it('a failure after the stream opened is an error event in the dialect envelope, and the stream ends', async () => {
    const { status, events } = await rawStream(streamBody('Hello [[sim tokens=6]]', 'acme/failing'));
    expect(status).toBe(200);
    const last = events.at(-1);
    expect(last?.event).toBe('error');
    const body = last?.data as unknown as MessagesErrorBody;
    expect(body.type).toBe('error');
    expect(body.error.type).toBe('api_error');
    expect(body.error.code).toBe(502);
    expect(body.error.metadata).toMatchObject({ error_type: 'provider_error', provider_name: 'Sim A' });
    expect(events.some((event) => event.event === 'message_stop')).toBe(false);
  });

  it('a stream that failed after part of the answer is recorded as an error and billed for what was generated', async () => {
    const before = await accountMoney(harness);
    const { headers } = await rawStream(streamBody('Hello [[sim tokens=6]]', 'acme/failing'));
    const record = await send(harness, { path: `/generation?id=${headers.get('x-generation-id') ?? ''}` });
    const data = (record.json as { data: { status: string; tokens_completion: number | null; cost_usd: string } }).data;
    expect(data.status).toBe('error');
    expect(data.tokens_completion).toBeGreaterThan(0);
    const after = await accountMoney(harness);
    expect(after.reserved).toBe(before.reserved);
    expect(before.balance - after.balance).toBe(parseUsd(data.cost_usd));
  });

  it('the official client raises the error event', async () => {
    const stream = client.messages.stream({ model: 'acme/failing', max_tokens: 64, messages: [{ role: 'user', content: 'Hello [[sim tokens=6]]' }] });
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIError);
  });

  it('generated audio after the stream opened arrives as an error event (422)', async () => {
    const { status, events } = await rawStream(streamBody('Say it [[sim tokens=3]]', 'acme/speaker'));
    expect(status).toBe(200);
    expect(events[0]?.event).toBe('message_start');
    const last = events.at(-1)?.data as unknown as MessagesErrorBody;
    expect(last.type).toBe('error');
    expect(last.error).toMatchObject({ type: 'invalid_request_error', code: 422, metadata: { error_type: 'unsupported_output' } });
  });

  it('an overloaded provider after the stream opened is an overloaded_error event', async () => {
    const { status, text, events } = await rawStream(streamBody('Hello', 'acme/busy-slow'));
    expect(status).toBe(200);
    expect(text.startsWith(':')).toBe(true);
    expect(events.map((event) => event.event)).toEqual(['message_start', 'error']);
    const body = events[1]?.data as unknown as MessagesErrorBody;
    expect(body.error).toMatchObject({ type: 'overloaded_error', code: 429, metadata: { error_type: 'provider_overloaded' } });
  });
});

describe('a streamed request refused before its stream opened answers in the dialect envelope', () => {
  it('an overloaded provider: 429 with overloaded_error and the provider Retry-After', async () => {
    const reply = await send(harness, { path: '/messages', body: streamBody('Hello', 'acme/busy') });
    expect(reply.status).toBe(429);
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    expect(reply.headers.get('retry-after')).toBe('7');
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
    const body = reply.json as MessagesErrorBody;
    expect(body.type).toBe('error');
    expect(body.error).toMatchObject({ type: 'overloaded_error', code: 429, metadata: { error_type: 'provider_overloaded', provider_name: 'Sim C' } });
  });

  it('the official client raises it as a rate-limit error', async () => {
    const stream = client.messages.stream({ model: 'acme/busy', max_tokens: 16, messages: [{ role: 'user', content: 'Hello' }] });
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.RateLimitError);
  });

  it('the same refusal without stream answers in the same envelope, every shared member kept', async () => {
    const reply = await send(harness, { path: '/messages', body: { ...streamBody('Hello', 'acme/busy'), stream: false } });
    expect(reply.status).toBe(429);
    expect(reply.headers.get('retry-after')).toBe('7');
    expect(reply.json).toMatchObject({ type: 'error', error: { type: 'overloaded_error', code: 429, metadata: { error_type: 'provider_overloaded' } } });
  });
});
