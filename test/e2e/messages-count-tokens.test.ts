import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';
import { anthropicClient } from './messages-client.js';

const WEATHER: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};

let harness: Harness;
let client: Anthropic;

beforeAll(async () => {
  harness = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }] });
  client = anthropicClient(harness);
});

afterAll(async () => harness.close());

describe('POST /messages/count_tokens', () => {
  it('the official client reads {input_tokens}', async () => {
    const counted = await client.messages.countTokens({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hello there' }] });
    expect(Object.keys(counted)).toEqual(['input_tokens']);
    expect(Number.isInteger(counted.input_tokens)).toBe(true);
    expect(counted.input_tokens).toBeGreaterThan(0);
  });

  it('is the estimate the credit hold takes for the same messages request', async () => {
    const request = {
      model: 'acme/chat',
      system: 'You answer about weather.',
      tools: [WEATHER],
      messages: [{ role: 'user' as const, content: 'Weather in Lisbon, please [[sim tokens=2]]' }],
    };
    const counted = await client.messages.countTokens(request);
    const reply = await send(harness, { path: '/messages', body: { ...request, max_tokens: 16 } });
    const record = await send(harness, { path: `/generation?id=${reply.headers.get('x-generation-id') ?? ''}` });
    expect((record.json as { data: { estimated_prompt_tokens: number } }).data.estimated_prompt_tokens).toBe(counted.input_tokens);
  });

  it('system and tool schemas are counted', async () => {
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Hello there' }];
    const bare = await client.messages.countTokens({ model: 'acme/chat', messages });
    const withSystem = await client.messages.countTokens({ model: 'acme/chat', system: 'Be brief and precise.', messages });
    const withTools = await client.messages.countTokens({ model: 'acme/chat', tools: [WEATHER], messages });
    expect(withSystem.input_tokens).toBeGreaterThan(bare.input_tokens);
    expect(withTools.input_tokens).toBeGreaterThan(bare.input_tokens);
  });

  it('charges nothing and records no generation', async () => {
    const before = await accountMoney(harness);
    const reply = await send(harness, { path: '/messages/count_tokens', body: { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] } });
    expect(reply.status).toBe(200);
    const id = reply.headers.get('x-generation-id') ?? '';
    expect(id).toMatch(/^gen-/);
    expect(await accountMoney(harness)).toEqual(before);
    expect((await send(harness, { path: `/generation?id=${id}` })).status).toBe(404);
  });

  it('special-token markers in the text are counted as text, on count_tokens and for the hold of a request', async () => {
    const messages = [{ role: 'user', content: 'Print <|endoftext|> and <|im_start|> verbatim [[sim tokens=2]]' }];
    const counted = await send(harness, { path: '/messages/count_tokens', body: { model: 'acme/chat', messages } });
    expect(counted.status).toBe(200);
    expect((counted.json as { input_tokens: number }).input_tokens).toBeGreaterThan(10);
    const answered = await send(harness, { path: '/messages', body: { model: 'acme/chat', max_tokens: 16, messages } });
    expect(answered.status).toBe(200);
  });

  it('a 190,000-character run of one character is estimated at once, at no less than a token per 5 bytes', async () => {
    const reply = await send(harness, { path: '/messages/count_tokens', body: { model: 'acme/chat', messages: [{ role: 'user', content: 'x'.repeat(190_000) }] } });
    expect(reply.status).toBe(200);
    expect((reply.json as { input_tokens: number }).input_tokens).toBeGreaterThanOrEqual(190_000 / 5);
  });

  it('needs a key', async () => {
    const reply = await send(harness, { path: '/messages/count_tokens', body: { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] }, key: null });
    expect(reply.status).toBe(401);
    expect((reply.json as ErrorEnvelope).error.metadata.error_type).toBe('authentication');
  });

  it('an unknown model is 404', async () => {
    const reply = await send(harness, { path: '/messages/count_tokens', body: { model: 'acme/nothing', messages: [{ role: 'user', content: 'Hi' }] } });
    expect(reply.status).toBe(404);
    expect((reply.json as ErrorEnvelope).error.metadata.error_type).toBe('not_found');
  });

  it('messages and model are required, and a hosted web-search tool is refused naming its position', async () => {
    const noMessages = await send(harness, { path: '/messages/count_tokens', body: { model: 'acme/chat' } });
    expect(noMessages.status).toBe(400);
    expect((noMessages.json as ErrorEnvelope).error.message).toMatch(/^messages:/);
    const search = await send(harness, {
      path: '/messages/count_tokens',
      body: { model: 'acme/chat', tools: [{ type: 'web_search_20250305', name: 'web_search' }], messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(search.status).toBe(400);
    expect((search.json as ErrorEnvelope).error.message).toMatch(/^tools\[0\]:/);
  });
});

describe('the OpenAPI document', () => {
  it('lists both messages routes', async () => {
    const reply = await send(harness, { path: '/openapi.json', key: null });
    const document = reply.json as { paths: Record<string, unknown> };
    expect(document.paths).toHaveProperty(['/api/v1/messages']);
    expect(document.paths).toHaveProperty(['/api/v1/messages/count_tokens']);
  });
});
