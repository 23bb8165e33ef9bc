import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { send, startHarness, type Harness } from './harness.js';
import { anthropicClient, lastUpstreamBody, type MessagesErrorBody } from './messages-client.js';

/**
 * The messages dialect is a decoder/encoder pair around the one core: the same requests give the
 * same replies whether the serving endpoint speaks the OpenAI-compatible wire or the Anthropic one.
 */
const WIRES = [
  { wire: 'openai', model: 'acme/gpt', path: '/v1/chat/completions' },
  { wire: 'anthropic', model: 'acme/claude', path: '/v1/messages' },
] as const;

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==';

const WEATHER: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};

let harness: Harness;
let client: Anthropic;

beforeAll(async () => {
  const endpoint = { max_completion_tokens: 4096, input_modalities: ['text', 'image'] };
  harness = await startHarness({
    models: [
      { id: 'acme/gpt', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', ...endpoint }] },
      { id: 'acme/claude', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude', ...endpoint }] },
      { id: 'acme/claude-overloaded', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude;error=529' }] },
      { id: 'acme/claude-failing', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude;fail_after=2' }] },
    ],
  });
  client = anthropicClient(harness);
});

afterAll(async () => harness.close());

describe.each(WIRES)('messages over the $wire wire', ({ model, path }) => {
  it('a non-streamed reply has the text, the verdict and both counts reported', async () => {
    const reply = await client.messages.create({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Hello [[sim tokens=4]]' }] });
    expect(reply.model).toBe(model);
    expect(reply.content).toEqual([{ type: 'text', text: 'Hello from the provider' }]);
    expect(reply.stop_reason).toBe('end_turn');
    expect(reply.usage.output_tokens).toBe(4);
    expect(reply.usage.input_tokens).toBeGreaterThan(0);
    expect(reply.usage).not.toHaveProperty('service');
  });

  it('messages.stream assembles the same message', async () => {
    const final = await client.messages.stream({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Hello [[sim tokens=4]]' }] }).finalMessage();
    expect(final.content).toEqual([{ type: 'text', text: 'Hello from the provider' }]);
    expect(final.stop_reason).toBe('end_turn');
    expect(final.usage.output_tokens).toBe(4);
  });

  it('a tool round trip: tool_use, tool_result, answer', async () => {
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris today [[sim tools]]' };
    const first = await client.messages.create({ model, max_tokens: 256, tools: [WEATHER], messages: [question] });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    expect(call?.name).toBe('get_weather');
    expect(call?.input).toEqual({ query: 'Weather in Paris' });
    const second = await client.messages.stream({
      model,
      max_tokens: 256,
      tools: [WEATHER],
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call?.id ?? '', content: 'Sunny' }, { type: 'text', text: 'So? [[sim tokens=2]]' }] },
      ],
    }).finalMessage();
    expect(second.content).toEqual([{ type: 'text', text: 'Hello from' }]);
  });

  it('thinking the model produced arrives as a signed thinking block', async () => {
    const reply = await client.messages.create({ model, max_tokens: 256, messages: [{ role: 'user', content: 'Think [[sim tokens=2 reasoning=3 reasoning_on_none]]' }] });
    expect(reply.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    const thinking = reply.content[0];
    expect(thinking?.type === 'thinking' && thinking.thinking.length > 0 && thinking.signature.length > 0).toBe(true);
  });

  it('an image in the user turn reaches the endpoint', async () => {
    const reply = await client.messages.create({
      model,
      max_tokens: 64,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } }, { type: 'text', text: 'What is it?' }] }],
    });
    expect(reply.type).toBe('message');
    expect(JSON.stringify(lastUpstreamBody(harness, path))).toContain(PIXEL);
  });

  it('the answer ends before a stop sequence', async () => {
    const reply = await client.messages.create({ model, max_tokens: 64, stop_sequences: [' provider'], messages: [{ role: 'user', content: 'Hello [[sim tokens=8]]' }] });
    expect(reply.content).toEqual([{ type: 'text', text: 'Hello from the' }]);
  });

  it('count_tokens answers the same for either wire', async () => {
    const counted = await client.messages.countTokens({ model, system: 'Be brief.', tools: [WEATHER], messages: [{ role: 'user', content: 'Hi' }] });
    const other = await client.messages.countTokens({ model: 'acme/gpt', system: 'Be brief.', tools: [WEATHER], messages: [{ role: 'user', content: 'Hi' }] });
    expect(counted.input_tokens).toBe(other.input_tokens);
  });
});

describe('messages over the anthropic wire', () => {
  it('a stop sequence the provider names gives stop_reason stop_sequence, whole and streamed', async () => {
    const request = { model: 'acme/claude', max_tokens: 64, stop_sequences: [' provider'], messages: [{ role: 'user' as const, content: 'Hello [[sim tokens=8]]' }] };
    const reply = await client.messages.create(request);
    expect(reply.stop_reason).toBe('stop_sequence');
    expect(reply.stop_sequence).toBe(' provider');
    const final = await client.messages.stream(request).finalMessage();
    expect(final.stop_reason).toBe('stop_sequence');
    expect(final.stop_sequence).toBe(' provider');
  });

  it('disable_parallel_tool_use reaches the endpoint in its tool_choice, and honoured says so', async () => {
    const events = await send(harness, {
      path: '/messages',
      body: {
        model: 'acme/claude', max_tokens: 64, stream: true, tools: [WEATHER],
        tool_choice: { type: 'any', disable_parallel_tool_use: true },
        messages: [{ role: 'user', content: 'Weather in Paris [[sim tools]]' }],
      },
    });
    expect(lastUpstreamBody(harness, '/v1/messages').tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    const delta = events.text.split('\n').find((line) => line.includes('"type":"message_delta"')) ?? '';
    expect(JSON.parse(delta.slice('data: '.length))).toMatchObject({ honoured: { disable_parallel_tool_use: true } });
  });

  it('an overloaded provider (529) is overloaded_error in the dialect envelope of a refused stream', async () => {
    const reply = await send(harness, { path: '/messages', body: { model: 'acme/claude-overloaded', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'Hi' }] } });
    expect(reply.status).toBe(502);
    const body = reply.json as MessagesErrorBody;
    expect(body.error).toMatchObject({ type: 'overloaded_error', code: 502, metadata: { error_type: 'provider_error', provider_status: 529 } });
  });

  it('a failure after the stream opened is an error event', async () => {
    const stream = client.messages.stream({ model: 'acme/claude-failing', max_tokens: 64, messages: [{ role: 'user', content: 'Hello [[sim tokens=6]]' }] });
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIError);
  });
});
