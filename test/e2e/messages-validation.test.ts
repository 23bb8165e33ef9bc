import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';
import type { MessagesErrorBody } from './messages-client.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }] });
});

afterAll(async () => harness.close());

const WEATHER = { name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } } } };

function body(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'acme/chat', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }], ...extra };
}

async function refusal(requestBody: Record<string, unknown>, headers: Record<string, string> = {}): Promise<{ status: number; envelope: ErrorEnvelope }> {
  const reply = await send(harness, { path: '/messages', body: requestBody, headers });
  return { status: reply.status, envelope: reply.json as ErrorEnvelope };
}

/** A refusal of a non-streamed request: 400 carrying the shared envelope's members, naming the field. */
async function expectInvalid(requestBody: Record<string, unknown>, field: string): Promise<void> {
  const { status, envelope } = await refusal(requestBody);
  expect(status).toBe(400);
  expect(envelope.error.code).toBe(400);
  expect(envelope.error.metadata.error_type).toBe('invalid_request');
  expect(envelope.error.message.startsWith(`${field}:`), envelope.error.message).toBe(true);
}

describe('messages request rules', () => {
  it('max_tokens is required', async () => {
    const { max_tokens: _, ...rest } = body();
    await expectInvalid(rest, 'max_tokens');
  });

  it('max_tokens below 1 is refused', async () => {
    await expectInvalid(body({ max_tokens: 0 }), 'max_tokens');
  });

  it('model is required', async () => {
    const { model: _, ...rest } = body();
    await expectInvalid(rest, 'model');
  });

  it('messages needs at least one message', async () => {
    await expectInvalid(body({ messages: [] }), 'messages');
  });

  it('a message role other than user, assistant or system is refused', async () => {
    await expectInvalid(body({ messages: [{ role: 'tool', content: 'x' }] }), 'messages[0].role');
  });

  it('messages made only of system turns are refused naming messages', async () => {
    await expectInvalid(body({ messages: [{ role: 'system', content: 'x' }] }), 'messages');
  });

  it('a system turn holds a string or text blocks', async () => {
    const image = { type: 'image', source: { type: 'url', url: 'https://x.example/a.png' } };
    await expectInvalid(body({ messages: [{ role: 'user', content: 'Hi' }, { role: 'system', content: [image] }] }), 'messages[1].content[0].text');
  });

  it('system must be a string or text blocks', async () => {
    await expectInvalid(body({ system: 42 }), 'system');
    await expectInvalid(body({ system: [{ type: 'image', source: { type: 'url', url: 'https://x.example/a.png' } }] }), 'system[0].text');
  });

  it('more than 8 stop_sequences are refused; 8 are accepted', async () => {
    await expectInvalid(body({ stop_sequences: ['1', '2', '3', '4', '5', '6', '7', '8', '9'] }), 'stop_sequences');
    expect((await send(harness, { path: '/messages', body: body({ stop_sequences: ['1', '2', '3', '4', '5', '6', '7', '8'] }) })).status).toBe(200);
  });

  it('top_k below 0 is refused', async () => {
    await expectInvalid(body({ top_k: -1 }), 'top_k');
  });

  it('temperature above 2 and top_p above 1 are refused', async () => {
    await expectInvalid(body({ temperature: 2.5 }), 'temperature');
    await expectInvalid(body({ top_p: 1.5 }), 'top_p');
  });

  it('more than 20 models are refused', async () => {
    await expectInvalid(body({ models: Array.from({ length: 21 }, (_, i) => `acme/m${i}`) }), 'models');
  });

  it('an unknown content block type is refused naming its position', async () => {
    await expectInvalid(body({ messages: [{ role: 'user', content: [{ type: 'video', url: 'x' }] }] }), 'messages[0].content[0].type');
  });

  it('a tool_use block in a user message is refused naming its path', async () => {
    const messages = [{ role: 'user', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] }];
    await expectInvalid(body({ messages }), 'messages[0].content[0].type');
  });

  it('a dated hosted web-search tool is refused naming the entry position', async () => {
    const tools = [WEATHER, { type: 'web_search_20250305', name: 'web_search', max_uses: 3 }];
    await expectInvalid(body({ tools }), 'tools[1]');
    const { envelope } = await refusal(body({ tools }));
    expect(envelope.error.message).toMatch(/web search/);
  });

  it('another hosted tool type is refused naming its type', async () => {
    await expectInvalid(body({ tools: [{ type: 'bash_20250124', name: 'bash' }] }), 'tools[0].type');
  });

  it('a function tool needs input_schema and a valid name', async () => {
    await expectInvalid(body({ tools: [{ name: 'get_weather' }] }), 'tools[0].input_schema');
    await expectInvalid(body({ tools: [{ name: 'bad name!', input_schema: { type: 'object' } }] }), 'tools[0].name');
  });

  it('tool_choice takes the dialect shape', async () => {
    await expectInvalid(body({ tools: [WEATHER], tool_choice: { type: 'tool' } }), 'tool_choice.name');
    await expectInvalid(body({ tools: [WEATHER], tool_choice: 'auto' }), 'tool_choice');
  });

  it('tool_choice must be satisfiable by the declared tools', async () => {
    await expectInvalid(body({ tools: [WEATHER], tool_choice: { type: 'tool', name: 'missing' } }), 'tool_choice.name');
    await expectInvalid(body({ tool_choice: { type: 'any' } }), 'tool_choice.type');
    await expectInvalid(body({ tool_choice: { type: 'tool', name: 'get_weather' } }), 'tool_choice.name');
  });

  it('a tool_use input must be an object', async () => {
    const messages = [
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: 'notobj' }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
    ];
    await expectInvalid(body({ tools: [WEATHER], messages }), 'messages[1].content[0].input');
  });

  it('the call-ready dispatch extension is rejected', async () => {
    await expectInvalid(body({ stream: true, stream_options: { include_tool_dispatch: true } }), 'stream_options.include_tool_dispatch');
  });

  it('X-Session-Id over 256 characters is refused', async () => {
    const { status, envelope } = await refusal(body(), { 'x-session-id': 'x'.repeat(257) });
    expect(status).toBe(400);
    expect(envelope.error.message).toMatch(/^X-Session-Id:/);
  });

  it('unknown members are accepted', async () => {
    expect((await send(harness, { path: '/messages', body: body({ service_tier: 'auto', container: null, anything: { a: 1 } }) })).status).toBe(200);
  });

  it('agent members in their null and typed forms are accepted', async () => {
    const text = { type: 'text', text: 'Hi', cache_control: null, citations: null };
    const tools = [{ ...WEATHER, type: null, cache_control: null, eager_input_streaming: null }, { ...WEATHER, name: 'get_time', type: 'custom', defer_loading: true }];
    const agent = body({
      messages: [{ role: 'user', content: [text] }, { role: 'system', content: 'Be brief.', clear_at: null }],
      tools,
      thinking: { type: 'disabled' },
      output_config: { effort: null, format: null },
      context_management: { edits: [] },
      metadata: { user_id: null },
    });
    const reply = await send(harness, { path: '/messages', body: agent });
    expect(reply.status, reply.text).toBe(200);
  });

  it('malformed agent members are refused naming the field', async () => {
    await expectInvalid(body({ thinking: { budget_tokens: 2048 } }), 'thinking.type');
    await expectInvalid(body({ thinking: { type: 'enabled', budget_tokens: 0 } }), 'thinking.budget_tokens');
    await expectInvalid(body({ output_config: { effort: 3 } }), 'output_config.effort');
    await expectInvalid(body({ output_config: { format: { type: 'json_schema' } } }), 'output_config.format.schema');
    await expectInvalid(body({ context_management: { edits: [{ keep: 'all' }] } }), 'context_management.edits[0].type');
    await expectInvalid(body({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { ttl: '5m' } }] }] }), 'messages[0].content[0].cache_control');
    await expectInvalid(body({ tools: [{ ...WEATHER, defer_loading: 'yes' }] }), 'tools[0].defer_loading');
    await expectInvalid(body({ messages: [{ role: 'user', content: 'Hi' }, { role: 'system', content: 'x', clear_at: 'later' }] }), 'messages[1].clear_at');
  });

  it('a refused request charges nothing and leaves no hold', async () => {
    const before = await accountMoney(harness);
    await refusal(body({ tools: [{ type: 'web_search_20250305', name: 'web_search' }] }));
    await refusal(body({ top_k: -1 }));
    expect(await accountMoney(harness)).toEqual(before);
  });
});

describe('streamed requests refused before the stream opened use the dialect envelope', () => {
  async function streamRefusal(requestBody: Record<string, unknown>, key?: string | null): Promise<{ status: number; body: MessagesErrorBody }> {
    const reply = await send(harness, { path: '/messages', body: { ...requestBody, stream: true }, ...(key === undefined ? {} : { key }) });
    expect(reply.headers.get('content-type')).toMatch(/^application\/json/);
    return { status: reply.status, body: reply.json as MessagesErrorBody };
  }

  it('a parameter out of range: 400 invalid_request_error naming the field', async () => {
    const { status, body: refused } = await streamRefusal(body({ top_k: -1 }));
    expect(status).toBe(400);
    expect(refused.type).toBe('error');
    expect(refused.error.type).toBe('invalid_request_error');
    expect(refused.error.message).toMatch(/^top_k:/);
    expect(refused.error.code).toBe(400);
    expect(refused.error.metadata.error_type).toBe('invalid_request');
  });

  it('a hosted web-search tool: 400 naming its position', async () => {
    const { status, body: refused } = await streamRefusal(body({ tools: [{ type: 'web_search_20250305', name: 'web_search' }] }));
    expect(status).toBe(400);
    expect(refused.error.message).toMatch(/^tools\[0\]:/);
  });

  it('an unknown model: 404 not_found_error', async () => {
    const { status, body: refused } = await streamRefusal(body({ model: 'acme/nothing' }));
    expect(status).toBe(404);
    expect(refused.error.type).toBe('not_found_error');
  });

  it('a missing or unknown key: 401 authentication_error', async () => {
    const missing = await streamRefusal(body(), null);
    expect(missing.status).toBe(401);
    expect(missing.body.error).toMatchObject({ type: 'authentication_error', message: 'Missing or invalid API key' });
    const unknown = await streamRefusal(body(), 'sk-nothing');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.type).toBe('authentication_error');
  });

  it('the same key refusal without stream answers in the same envelope, every shared member kept', async () => {
    const reply = await send(harness, { path: '/messages', body: body(), key: null });
    expect(reply.status).toBe(401);
    expect(reply.json).toEqual({
      type: 'error',
      error: { type: 'authentication_error', code: 401, message: 'Missing or invalid API key', metadata: { error_type: 'authentication' } },
    });
  });

  it('no credit: 402 billing_error with the amounts', async () => {
    const poor = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }], credits: '0' });
    try {
      const reply = await send(poor, { path: '/messages', body: { ...body(), stream: true } });
      expect(reply.status).toBe(402);
      const refused = reply.json as MessagesErrorBody;
      expect(refused.error.type).toBe('billing_error');
      expect(refused.error.metadata.error_type).toBe('payment_required');
      expect(typeof refused.error.metadata.required).toBe('string');
    } finally {
      await poor.close();
    }
  });
});
