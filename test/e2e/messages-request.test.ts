import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import { send, startHarness, type Harness } from './harness.js';
import { anthropicClient, lastUpstreamBody, lastUpstreamRequest } from './messages-client.js';

/** A 1×1 PNG. */
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==';

let harness: Harness;
let client: Anthropic;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', input_modalities: ['text', 'image', 'file'] }] },
      {
        id: 'acme/pair',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;tokens=3', pricing: { prompt: '0.0000001', completion: '0.0000001' } },
          { provider: 'sim-c', upstream_model: 'chat;tokens=4' },
        ],
      },
      {
        id: 'acme/sampler',
        endpoints: [{
          provider: 'sim-b',
          upstream_model: 'chat',
          max_completion_tokens: 64,
          supported_parameters: ['max_tokens', 'temperature', 'top_p', 'top_k', 'stop', 'tools', 'tool_choice', 'parallel_tool_calls'],
        }],
      },
    ],
  });
  client = anthropicClient(harness);
});

afterAll(async () => harness.close());

describe('a messages request reaches the endpoint in the core shape', () => {
  it('a string system prompt becomes the first system message', async () => {
    await client.messages.create({ model: 'acme/chat', max_tokens: 32, system: 'Be brief.', messages: [{ role: 'user', content: 'Hi' }] });
    expect(lastUpstreamBody(harness).messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('system text blocks are joined into the system message', async () => {
    await client.messages.create({
      model: 'acme/chat',
      max_tokens: 32,
      system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Be kind.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
    expect(lastUpstreamBody(harness).messages).toEqual([
      { role: 'system', content: 'Be brief.\nBe kind.' },
      { role: 'user', content: [{ type: 'text', text: 'Hi' }] },
    ]);
  });

  it('user images with base64 and url sources become image parts', async () => {
    await client.messages.create({
      model: 'acme/chat',
      max_tokens: 32,
      messages: [{
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } },
          { type: 'image', source: { type: 'url', url: 'https://img.example/cat.png' } },
          { type: 'text', text: 'What are these?' },
        ],
      }],
    });
    expect(lastUpstreamBody(harness).messages).toEqual([{
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
        { type: 'image_url', image_url: { url: 'https://img.example/cat.png' } },
        { type: 'text', text: 'What are these?' },
      ],
    }]);
  });

  it('documents: inline bytes become a file part, plain text becomes text under its title', async () => {
    const pdf = Buffer.from('%PDF-1.4 tiny').toString('base64');
    await client.messages.create({
      model: 'acme/chat',
      max_tokens: 32,
      messages: [{
        role: 'user',
        content: [
          { type: 'document', title: 'report.pdf', source: { type: 'base64', media_type: 'application/pdf', data: pdf } },
          { type: 'document', title: 'Notes', source: { type: 'text', media_type: 'text/plain', data: 'Buy milk.' } },
          { type: 'text', text: 'Summarise.' },
        ],
      }],
    });
    expect(lastUpstreamBody(harness).messages).toEqual([{
      role: 'user',
      content: [
        { type: 'file', file: { filename: 'report.pdf', file_data: `data:application/pdf;base64,${pdf}` } },
        { type: 'text', text: 'Notes\n\nBuy milk.' },
        { type: 'text', text: 'Summarise.' },
      ],
    }]);
  });

  it('stored files follow the chat rules: an unreadable id is 404, more than 16 is 400', async () => {
    const stored = (count: number) => Array.from({ length: count }, (_, i) => ({ type: 'document', source: { type: 'file', file_id: `file-${i}` } }));
    const unreadable = await send(harness, { path: '/messages', body: { model: 'acme/chat', max_tokens: 16, messages: [{ role: 'user', content: stored(1) }] } });
    expect(unreadable.status).toBe(404);
    expect(unreadable.text).toMatch(/file-0/);
    const afterSystem = await send(harness, {
      path: '/messages',
      body: { model: 'acme/chat', max_tokens: 16, system: 'Be brief', messages: [{ role: 'user', content: [{ type: 'text', text: 'Read' }, ...stored(1)] }] },
    });
    expect(afterSystem.status).toBe(404);
    expect(afterSystem.text).toContain('messages[0].content[1].source.file_id: ');
    const many = await send(harness, { path: '/messages', body: { model: 'acme/chat', max_tokens: 16, messages: [{ role: 'user', content: stored(17) }] } });
    expect(many.status).toBe(400);
  });

  it('an empty content array is refused', async () => {
    const reply = await send(harness, { path: '/messages', body: { model: 'acme/chat', max_tokens: 16, messages: [{ role: 'user', content: [] }] } });
    expect(reply.status).toBe(400);
    expect(reply.text).toMatch(/messages\[0\]\.content/);
  });

  it('an image is routed only to endpoints reading images (503 naming the modality)', async () => {
    const reply = await send(harness, {
      path: '/messages',
      body: {
        model: 'acme/sampler',
        max_tokens: 16,
        messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } }] }],
      },
    });
    expect(reply.status).toBe(503);
    expect(reply.text).toMatch(/image/);
  });

  it('an earlier assistant turn keeps its thinking as reasoning details and its text as content', async () => {
    await client.messages.create({
      model: 'acme/chat',
      max_tokens: 32,
      messages: [
        { role: 'user', content: 'Hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'They greet me.', signature: 'sig-1' },
            { type: 'redacted_thinking', data: 'opaque' },
            { type: 'text', text: 'Hello!' },
          ],
        },
        { role: 'user', content: 'Again' },
      ],
    });
    const assistant = (lastUpstreamBody(harness).messages as Array<Record<string, unknown>>)[1];
    expect(assistant).toEqual({
      role: 'assistant',
      content: 'Hello!',
      reasoning: 'They greet me.',
      reasoning_details: [
        { type: 'reasoning.text', text: 'They greet me.', signature: 'sig-1', format: 'anthropic-claude-v1', index: 0 },
        { type: 'reasoning.encrypted', data: 'opaque', format: 'anthropic-claude-v1', index: 1 },
      ],
    });
  });

  it('max_tokens is the ceiling, lowered to the endpoint own; stop_sequences become stop; thinking and metadata are not forwarded', async () => {
    const reply = await send(harness, {
      path: '/messages',
      body: {
        model: 'acme/sampler',
        max_tokens: 1000,
        stop_sequences: ['END'],
        temperature: 0.5,
        top_p: 0.9,
        top_k: 40,
        thinking: { type: 'enabled', budget_tokens: 2048 },
        metadata: { user_id: 'u-1' },
        messages: [{ role: 'user', content: 'Hi' }],
      },
    });
    expect(reply.status).toBe(200);
    const body = lastUpstreamBody(harness);
    expect(body.max_tokens).toBe(64);
    expect(body.stop).toEqual(['END']);
    expect(body.temperature).toBe(0.5);
    expect(body.top_p).toBe(0.9);
    expect(body.top_k).toBe(40);
    for (const member of ['thinking', 'metadata', 'stop_sequences', 'system', 'user']) expect(body).not.toHaveProperty(member);
  });

  it('top_k is sent only where the endpoint declares it, and top_p 0 is accepted', async () => {
    const reply = await send(harness, {
      path: '/messages',
      body: { model: 'acme/chat', max_tokens: 16, top_k: 0, top_p: 0, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(reply.status).toBe(200);
    const body = lastUpstreamBody(harness);
    expect(body).not.toHaveProperty('top_k');
    expect(body.top_p).toBe(0);
  });

  it('session affinity comes only from X-Session-Id, delivered as x-session-id', async () => {
    await send(harness, {
      path: '/messages',
      headers: { 'x-session-id': 'conv-42' },
      body: { model: 'acme/chat', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(lastUpstreamRequest(harness).headers['x-session-id']).toBe('conv-42');
    await send(harness, {
      path: '/messages',
      body: { model: 'acme/chat', max_tokens: 16, session_id: 'body-1', prompt_cache_key: 'key-1', messages: [{ role: 'user', content: 'Hi' }] },
    });
    const upstream = lastUpstreamRequest(harness);
    expect(upstream.headers['x-session-id']).toBeUndefined();
    expect(upstream.body).not.toHaveProperty('session_id');
    expect(upstream.body).not.toHaveProperty('prompt_cache_key');
  });

  it('the same X-Session-Id prefers the endpoint that served the conversation; a body session_id does not', async () => {
    const turn = async (extra: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> => {
      const reply = await send(harness, { path: '/messages', headers, body: { model: 'acme/pair', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }], ...extra } });
      expect(reply.status).toBe(200);
      return reply.headers.get('x-provider-name') ?? '';
    };
    expect(await turn({ provider: { order: ['sim-c'] } }, { 'x-session-id': 'conversation-9' })).toBe('Sim C');
    expect(await turn({}, { 'x-session-id': 'conversation-9' })).toBe('Sim C');
    expect(await turn({}, { 'x-session-id': 'conversation-10' })).toBe('Sim A');
    expect(await turn({ session_id: 'conversation-9' })).toBe('Sim A');
  });

  it('members sent as null read as absent', async () => {
    const reply = await send(harness, {
      path: '/messages',
      body: { model: 'acme/sampler', max_tokens: 16, temperature: null, system: null, stop_sequences: null, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(reply.status).toBe(200);
    const body = lastUpstreamBody(harness);
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('stop');
    expect(body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('attribution headers are recorded on the generation', async () => {
    const reply = await send(harness, {
      path: '/messages',
      headers: { 'x-title': 'Agent', 'http-referer': 'https://agent.example' },
      body: { model: 'acme/chat', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] },
    });
    const record = await send(harness, { path: `/generation?id=${reply.headers.get('x-generation-id') ?? ''}` });
    expect(record.json).toMatchObject({ data: { app_title: 'Agent', app_referer: 'https://agent.example', status: 'success' } });
  });
});
