import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';
import { anthropicClient } from './messages-client.js';

let harness: Harness;
let client: Anthropic;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
      { id: 'acme/quiet', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;no_usage' }] },
      { id: 'acme/speaker', endpoints: [{ provider: 'sim-c', upstream_model: 'chat;audio=1' }] },
    ],
  });
  client = anthropicClient(harness);
});

afterAll(async () => harness.close());

function ask(content: string, model = 'acme/chat', maxTokens = 256): Anthropic.MessageCreateParamsNonStreaming {
  return { model, max_tokens: maxTokens, messages: [{ role: 'user', content }] };
}

describe('messages reply (official Anthropic client)', () => {
  it('is a message object with a text block, the verdict and both counts', async () => {
    const { data: reply, response } = await client.messages.create(ask('Hello [[sim tokens=4]]')).withResponse();
    expect(reply.type).toBe('message');
    expect(reply.role).toBe('assistant');
    expect(reply.model).toBe('acme/chat');
    expect(reply.content).toEqual([{ type: 'text', text: 'Hello from the provider' }]);
    expect(reply.stop_reason).toBe('end_turn');
    expect(reply.stop_sequence).toBeNull();
    expect(reply.usage.output_tokens).toBe(4);
    expect(reply.usage.input_tokens).toBeGreaterThan(0);
    expect(reply.usage).not.toHaveProperty('service');
    expect(reply.usage).not.toHaveProperty('server_tool_use');
    expect(response.headers.get('x-provider-name')).toBe('Sim A');
    const generationId = response.headers.get('x-generation-id') ?? '';
    expect(generationId).toMatch(/^gen-/);
    expect(reply.id).toBe(`msg_${generationId.slice('gen-'.length)}`);
  });

  it('an answer cut by max_tokens stops with max_tokens', async () => {
    const reply = await client.messages.create(ask('Hello [[sim tokens=10]]', 'acme/chat', 3));
    expect(reply.stop_reason).toBe('max_tokens');
    expect(reply.usage.output_tokens).toBe(3);
  });

  it('counts nothing measured are sent as 0 and both named in usage.service.unreported', async () => {
    const reply = await send(harness, { path: '/messages', body: ask('Hello [[sim tokens=3]]', 'acme/quiet') });
    expect(reply.status).toBe(200);
    const usage = (reply.json as { usage: unknown }).usage;
    expect(usage).toEqual({ input_tokens: 0, output_tokens: 0, service: { unreported: ['input_tokens', 'output_tokens'] } });
  });

  it('reasoning arrives as a signed thinking block before the text', async () => {
    const reply = await client.messages.create(ask('Think first [[sim tokens=3 reasoning=4]]'));
    expect(reply.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    const thinking = reply.content[0];
    expect(thinking?.type === 'thinking' && thinking.thinking.length > 0).toBe(true);
    expect(thinking?.type === 'thinking' && thinking.signature).toMatch(/^sig-/);
  });

  it('opaque reasoning arrives as a redacted_thinking block', async () => {
    const reply = await client.messages.create(ask('Think first [[sim tokens=2 reasoning=3 encrypted]]'));
    const types = reply.content.map((block) => block.type);
    expect(types).toEqual(['thinking', 'redacted_thinking', 'text']);
    const redacted = reply.content[1];
    expect(redacted?.type === 'redacted_thinking' && redacted.data.length > 0).toBe(true);
  });

  it('a generated picture is an image block with a base64 source next to the text', async () => {
    const reply = await send(harness, { path: '/messages', body: ask('Draw [[sim tokens=2 image=3x2]]') });
    const content = (reply.json as { content: Array<Record<string, unknown>> }).content;
    expect(content[0]).toEqual({ type: 'text', text: 'Hello from' });
    const image = content[1] as { type: string; source: { type: string; media_type: string; data: string } };
    expect(image.type).toBe('image');
    expect(image.source.type).toBe('base64');
    expect(image.source.media_type).toBe('image/png');
    expect(Buffer.from(image.source.data, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('a picture behind a URL is an image block with a url source', async () => {
    const reply = await send(harness, { path: '/messages', body: ask('Draw [[sim tokens=2 image_url=https://img.example/cat.png]]') });
    const content = (reply.json as { content: Array<Record<string, unknown>> }).content;
    expect(content[1]).toEqual({ type: 'image', source: { type: 'url', url: 'https://img.example/cat.png' } });
  });

  it('a refusal is text with stop_reason refusal', async () => {
    const reply = await client.messages.create(ask('Something bad [[sim refusal]]'));
    expect(reply.stop_reason).toBe('refusal');
    expect(reply.content[0]?.type).toBe('text');
    expect(reply.content[0]?.type === 'text' && reply.content[0].text.length > 0).toBe(true);
  });

  it('text blocks carry no citations member', async () => {
    const reply = await send(harness, { path: '/messages', body: ask('Hello [[sim tokens=2]]') });
    const content = (reply.json as { content: Array<Record<string, unknown>> }).content;
    expect(Object.keys(content[0] ?? {}).sort()).toEqual(['text', 'type']);
  });

  it('a reply carrying generated audio is refused with 422 in the shared envelope, recorded with its counts and charged nothing', async () => {
    const before = await accountMoney(harness);
    const reply = await send(harness, { path: '/messages', body: ask('Say it [[sim tokens=3]]', 'acme/speaker') });
    expect(reply.status).toBe(422);
    const envelope = reply.json as ErrorEnvelope;
    expect(envelope.error.code).toBe(422);
    expect(envelope.error.metadata.error_type).toBe('unsupported_output');
    expect(envelope.error.message).toMatch(/audio/);
    const generationId = reply.headers.get('x-generation-id') ?? '';
    const record = await send(harness, { path: `/generation?id=${generationId}` });
    const data = (record.json as { data: { status: string; error: { code: number }; tokens_completion: number; total_cost: number } }).data;
    expect(data.status).toBe('error');
    expect(data.error.code).toBe(422);
    expect(data.tokens_completion).toBe(3);
    expect(data.total_cost).toBe(0);
    const after = await accountMoney(harness);
    expect(after.reserved).toBe(before.reserved);
    expect(after.balance).toBe(before.balance);
  });

  it('the official client raises the 422 as an API error', async () => {
    await expect(client.messages.create(ask('Say it [[sim tokens=2]]', 'acme/speaker'))).rejects.toMatchObject({ status: 422 });
  });
});

describe('clients using the beta surface', () => {
  it('client.beta.messages (POST /messages?beta=true) is the same route, extra members and cache controls accepted', async () => {
    const reply = await client.beta.messages.create({
      model: 'acme/chat',
      max_tokens: 64,
      betas: ['context-management-2025-06-27'],
      system: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }],
      metadata: { user_id: 'user-1' },
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello [[sim tokens=2]]', cache_control: { type: 'ephemeral' } }] }],
    });
    expect(reply.content).toEqual([{ type: 'text', text: 'Hello from' }]);
    const counted = await client.beta.messages.countTokens({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hello' }] });
    expect(counted.input_tokens).toBeGreaterThan(0);
  });
});
