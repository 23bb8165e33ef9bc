import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/sim/server.js';
import { startSimulator } from '../../../src/sim/server.js';
import { isJson, sseEvents } from './sse-events.js';

let sim: RunningSimulator;
let client: Anthropic;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  client = new Anthropic({ baseURL: sim.url, apiKey: 'sim', maxRetries: 0 });
});

afterAll(async () => sim.close());

const WIRE_HEADERS = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };

const ask = (text: string): Anthropic.MessageParam[] => [{ role: 'user', content: text }];

async function raw(body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const response = await fetch(`${sim.url}/v1/messages`, { method: 'POST', headers: WIRE_HEADERS, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

describe('simulator: Anthropic Messages wire, whole replies', () => {
  it('answers a message with the shared reply text, stop reason and usage', async () => {
    const message = await client.messages.create({ model: 'sim;tokens=5', max_tokens: 100, system: 'Be brief.', messages: ask('Hello') });
    expect(message.type).toBe('message');
    expect(message.id).toMatch(/^msg_sim/);
    expect(message.model).toBe('sim;tokens=5');
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from the provider simulator' }]);
    expect(message.stop_reason).toBe('end_turn');
    expect(message.usage.output_tokens).toBe(5);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
  });

  it('counts the system prompt as the chat wire counts a system message', async () => {
    const chat = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'sim', messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Hello' }] }),
    });
    const chatUsage = ((await chat.json()) as { usage: { prompt_tokens: number } }).usage;
    const message = await client.messages.create({ model: 'sim', max_tokens: 100, system: [{ type: 'text', text: 'Be brief.' }], messages: ask('Hello') });
    expect(message.usage.input_tokens).toBe(chatUsage.prompt_tokens);
  });

  it('a max_tokens below the answer stops with max_tokens', async () => {
    const message = await client.messages.create({ model: 'sim;tokens=9', max_tokens: 3, messages: ask('x') });
    expect(message.stop_reason).toBe('max_tokens');
    expect(message.usage.output_tokens).toBe(3);
  });

  it('tools: one tool_use block for the named tool with the first words as its query', async () => {
    const message = await client.messages.create({
      model: 'sim;tools',
      max_tokens: 100,
      tools: [{ name: 'first', input_schema: { type: 'object' } }, { name: 'second', input_schema: { type: 'object' } }],
      tool_choice: { type: 'tool', name: 'second' },
      messages: ask('weather in Paris today'),
    });
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content).toEqual([{ type: 'tool_use', id: expect.stringMatching(/^toolu_sim/), name: 'second', input: { query: 'weather in Paris' } }]);
  });

  it('tool_choice any or a named tool gets a tool_use block without the tools key', async () => {
    const tools = [{ name: 'first', input_schema: { type: 'object' as const } }];
    const any = await client.messages.create({ model: 'sim', max_tokens: 100, tools, tool_choice: { type: 'any' }, messages: ask('weather in Paris today') });
    expect(any.stop_reason).toBe('tool_use');
    expect(any.content[0]).toMatchObject({ type: 'tool_use', name: 'first' });
    const auto = await client.messages.create({ model: 'sim', max_tokens: 100, tools, tool_choice: { type: 'auto' }, messages: ask('hello') });
    expect(auto.stop_reason).toBe('end_turn');
  });

  it('tool_calls=N: one tool_use block per call, one after the other, with interleave too', async () => {
    const tools = [{ name: 'first', input_schema: { type: 'object' as const } }, { name: 'second', input_schema: { type: 'object' as const } }];
    for (const model of ['sim;tool_calls=2', 'sim;tool_calls=2;interleave']) {
      const message = await client.messages.stream({ model, max_tokens: 100, tools, messages: ask('weather in Paris today') }).finalMessage();
      expect(message.content).toEqual([
        { type: 'tool_use', id: expect.stringMatching(/^toolu_sim\d+$/), name: 'first', input: { query: 'weather in Paris', call: 1 } },
        { type: 'tool_use', id: expect.stringMatching(/^toolu_sim\d+_1$/), name: 'second', input: { query: 'weather in Paris', call: 2 } },
      ]);
    }
  });

  it('a tool_result turn keeps the directives of the last user text', async () => {
    const message = await client.messages.create({
      model: 'sim',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Go [[sim tokens=2]]' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'lookup', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'sunny' }] },
      ],
    });
    expect(message.content).toEqual([{ type: 'text', text: 'Hello from' }]);
  });

  it('reasoning=N thinks only when thinking is enabled: a signed thinking block, then redacted thinking with encrypted', async () => {
    const plain = await client.messages.create({ model: 'sim;reasoning=3;encrypted', max_tokens: 2000, messages: ask('x') });
    expect(plain.content.map((block) => block.type)).toEqual(['text']);
    const message = await client.messages.create({
      model: 'sim;reasoning=3;encrypted', max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: ask('x'),
    });
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'redacted_thinking', 'text']);
    expect(message.content[0]).toEqual({ type: 'thinking', thinking: 'Let me think', signature: expect.stringMatching(/^sig-/) });
    expect(message.usage.output_tokens).toBe(15);
    expect(message.usage.output_tokens_details).toEqual({ thinking_tokens: 3 });
  });

  it('cached and cache_write are reported apart from input_tokens', async () => {
    const whole = await client.messages.create({ model: 'sim', max_tokens: 100, messages: ask('a prompt long enough to cache') });
    const cached = await client.messages.create({ model: 'sim;cached=2;cache_write=3', max_tokens: 100, messages: ask('a prompt long enough to cache') });
    expect(cached.usage.cache_read_input_tokens).toBe(2);
    expect(cached.usage.cache_creation_input_tokens).toBe(3);
    expect(cached.usage.input_tokens).toBe(whole.usage.input_tokens - 5);
  });

  it('refusal answers text with stop_reason refusal; native_finish sends its raw reason', async () => {
    const refusal = await client.messages.create({ model: 'sim;refusal', max_tokens: 100, messages: ask('x') });
    expect(refusal.stop_reason).toBe('refusal');
    expect(refusal.content).toEqual([{ type: 'text', text: "I can't help with that." }]);
    const native = await client.messages.create({ model: 'sim;native_finish=pause_turn', max_tokens: 100, messages: ask('x') });
    expect(native.stop_reason).toBe('pause_turn');
  });

  it('no_usage leaves usage out', async () => {
    const { text } = await raw({ model: 'sim;no_usage', max_tokens: 100, messages: ask('x') });
    expect(JSON.parse(text)).not.toHaveProperty('usage');
  });

  it('echo answers the request body as the wire received it', async () => {
    const body = { model: 'sim;echo', max_tokens: 50, top_k: 5, messages: ask('x') };
    const message = await client.messages.create(body);
    expect(JSON.parse((message.content[0] as Anthropic.TextBlock).text)).toEqual(body);
  });
});

describe('simulator: Anthropic Messages wire, streams', () => {
  it('sends message_start, ping, block start/delta/stop, message_delta and message_stop', async () => {
    const { text } = await raw({ model: 'sim;tokens=2', max_tokens: 100, stream: true, messages: ask('x') });
    const events = sseEvents(text);
    expect(events.map((event) => event.event)).toEqual([
      'message_start', 'ping', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    for (const event of events) expect((JSON.parse(event.data) as { type: string }).type).toBe(event.event);
  });

  it('the official client assembles the same message a whole reply gives', async () => {
    const request = {
      model: 'sim;reasoning=2;tools', max_tokens: 2000, thinking: { type: 'enabled' as const, budget_tokens: 1024 },
      tools: [{ name: 'lookup', input_schema: { type: 'object' as const } }], messages: ask('find the answer please'),
    };
    const whole = await client.messages.create(request);
    const streamed = await client.messages.stream(request).finalMessage();
    expect(streamed.content).toEqual(whole.content.map((block) => (block.type === 'tool_use' ? { ...block, id: expect.any(String) } : block)));
    expect(streamed.stop_reason).toBe('tool_use');
    expect(streamed.usage.output_tokens).toBe(whole.usage.output_tokens);
    expect(streamed.usage.input_tokens).toBe(whole.usage.input_tokens);
  });

  it('fail_after=N ends with an in-band error event after N content events', async () => {
    const { text } = await raw({ model: 'sim;tokens=5;fail_after=2', max_tokens: 100, stream: true, messages: ask('x') });
    const events = sseEvents(text);
    expect(events.filter((event) => event.event === 'content_block_delta')).toHaveLength(2);
    expect(events.at(-1)?.event).toBe('error');
    expect(JSON.parse(events.at(-1)?.data ?? '')).toEqual({ type: 'error', error: { type: 'api_error', message: 'simulated mid-stream failure' } });
    await expect(client.messages.stream({ model: 'sim;fail_after=1', max_tokens: 100, messages: ask('x') }).finalMessage()).rejects.toThrow(/mid-stream/);
  });

  it('disconnect_after=N drops the connection with no message_delta', async () => {
    const response = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST', headers: WIRE_HEADERS,
      body: JSON.stringify({ model: 'sim;tokens=5;disconnect_after=1', max_tokens: 100, stream: true, messages: ask('x') }),
    });
    const text = await response.text().catch(() => '');
    expect(text).not.toContain('message_delta');
  });

  it('malformed sends a non-JSON data frame', async () => {
    const { text } = await raw({ model: 'sim;malformed=1', max_tokens: 100, stream: true, messages: ask('x') });
    expect(sseEvents(text).some((event) => !isJson(event.data))).toBe(true);
  });
});

describe('simulator: Anthropic Messages wire, refusals', () => {
  it('error=529 answers the overloaded error body', async () => {
    const { status, text } = await raw({ model: 'sim;error=529', max_tokens: 100, messages: ask('x') });
    expect(status).toBe(529);
    expect(JSON.parse(text)).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
  });

  it('max_tokens is required', async () => {
    const { status, text } = await raw({ model: 'sim', messages: ask('x') });
    expect(status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('max_tokens') } });
  });

  it('a thinking budget below 1024 or not below max_tokens is refused', async () => {
    expect((await raw({ model: 'sim', max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 100 }, messages: ask('x') })).status).toBe(400);
    expect((await raw({ model: 'sim', max_tokens: 1024, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: ask('x') })).status).toBe(400);
  });

  it('image blocks are read: base64 with a picture media type, or an http(s) url', async () => {
    const image = (source: Record<string, unknown>) => raw({ model: 'sim', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'image', source }, { type: 'text', text: 'what is it' }] }] });
    expect((await image({ type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' })).status).toBe(200);
    expect((await image({ type: 'url', url: 'https://example.com/a.png' })).status).toBe(200);
    expect((await image({ type: 'base64', media_type: 'text/plain', data: 'aGk=' })).status).toBe(400);
    expect((await image({ type: 'url' })).status).toBe(400);
  });

  it('refuse_param answers 400 in the Anthropic shape', async () => {
    const { status, text } = await raw({ model: 'sim;refuse_param=top_k', max_tokens: 10, top_k: 3, messages: ask('x') });
    expect(status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({ error: { type: 'invalid_request_error', message: expect.stringContaining('top_k') } });
  });

  it('behaviours with no counterpart on this wire are refused, not ignored', async () => {
    const { status, text } = await raw({ model: 'sim;image=2x2', max_tokens: 10, messages: ask('x') });
    expect(status).toBe(400);
    expect(text).toContain('image');
  });
});

describe('simulator: Anthropic Messages wire, headers', () => {
  it('a request without the anthropic-version header is refused', async () => {
    const response = await fetch(`${sim.url}/v1/messages`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'sim', max_tokens: 10, messages: ask('x') }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('anthropic-version');
  });
});
