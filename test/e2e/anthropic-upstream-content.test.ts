import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { buildPng } from '../../src/sim/png-image.js';
import { startHarness, type Harness } from './harness.js';

const WEATHER: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
};

const REASONING_PARAMETERS = ['max_tokens', 'tools', 'tool_choice', 'reasoning', 'parallel_tool_calls'];

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/claude', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude', supported_parameters: REASONING_PARAMETERS, input_modalities: ['text', 'image'] }] },
      { id: 'acme/claude-tools', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude;tools', supported_parameters: REASONING_PARAMETERS }] },
      { id: 'acme/claude-thinking', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude;reasoning=4;encrypted', supported_parameters: REASONING_PARAMETERS }] },
    ],
  });
});

afterAll(async () => harness.close());

function lastUpstreamBody(): Record<string, unknown> {
  const last = harness.sim.requests().at(-1);
  if (!last) throw new Error('the simulator received nothing');
  return last.body as Record<string, unknown>;
}

interface ReasoningDetail {
  type: string;
  text?: string;
  data?: string;
  signature?: string;
  format?: string;
  index: number;
}

describe('tools over the Anthropic wire', () => {
  it('a tool call round trip: the call comes back, the result goes up as tool_result, the model answers', async () => {
    const first = await harness.client.chat.completions.create({
      model: 'acme/claude-tools',
      tools: [WEATHER],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      messages: [{ role: 'user', content: 'Weather in Paris today' }],
    });
    expect(lastUpstreamBody()).toMatchObject({
      tools: [{ name: 'get_weather', description: 'Weather for a city', input_schema: WEATHER.function.parameters }],
      tool_choice: { type: 'tool', name: 'get_weather' },
    });
    const choice = first.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const call = choice?.message.tool_calls?.[0];
    const fn = call?.type === 'function' ? call.function : undefined;
    expect(call?.id).toMatch(/^toolu_sim/);
    expect(fn?.name).toBe('get_weather');
    expect(JSON.parse(fn?.arguments ?? '')).toEqual({ query: 'Weather in Paris' });

    const messages: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Weather in Paris today' },
      choice?.message as ChatCompletionMessageParam,
      { role: 'tool', tool_call_id: call?.id ?? '', content: 'Sunny, 21 C' },
    ];
    const second = await harness.client.chat.completions.create({ model: 'acme/claude', tools: [WEATHER], messages });
    expect(lastUpstreamBody().messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris today' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: call?.id, name: 'get_weather', input: { query: 'Weather in Paris' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call?.id, content: 'Sunny, 21 C' }] },
    ]);
    expect(second.choices[0]?.message.content).toBe('Hello from the provider simulator, one deterministic token at a time');
  });

  it('streamed input_json fragments are assembled into the call by the client stream helper', async () => {
    const final = await harness.client.chat.completions.stream({
      model: 'acme/claude-tools',
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'Weather in Paris today' }],
    }).finalChatCompletion();
    const call = final.choices[0]?.message.tool_calls?.[0];
    const fn = call?.type === 'function' ? call.function : undefined;
    expect(final.choices[0]?.finish_reason).toBe('tool_calls');
    expect(JSON.parse(fn?.arguments ?? '')).toEqual({ query: 'Weather in Paris' });
  });

  it('tool_choice required becomes any and parallel_tool_calls false disables parallel use', async () => {
    await harness.client.chat.completions.create({
      model: 'acme/claude-tools', tools: [WEATHER], tool_choice: 'required', parallel_tool_calls: false,
      messages: [{ role: 'user', content: 'Weather in Paris today' }],
    });
    expect(lastUpstreamBody().tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
  });
});

describe('thinking over the Anthropic wire', () => {
  it('reasoning.max_tokens is the thinking budget, beside the ceiling under max_tokens', async () => {
    await harness.client.chat.completions.create({
      model: 'acme/claude-thinking', max_tokens: 3000, messages: [{ role: 'user', content: 'Think' }],
      reasoning: { max_tokens: 2048 },
    } as ChatCompletionCreateParamsNonStreaming);
    expect(lastUpstreamBody()).toMatchObject({ max_tokens: 3000, thinking: { type: 'enabled', budget_tokens: 2048 } });
  });

  it('an effort level takes its share of the ceiling; none turns thinking off and nothing is reasoned', async () => {
    await harness.client.chat.completions.create({ model: 'acme/claude-thinking', max_tokens: 10000, reasoning_effort: 'high', messages: [{ role: 'user', content: 'Think' }] });
    expect(lastUpstreamBody().thinking).toEqual({ type: 'enabled', budget_tokens: 8000 });
    const off = await harness.client.chat.completions.create({ model: 'acme/claude-thinking', max_tokens: 10000, reasoning_effort: 'none', messages: [{ role: 'user', content: 'Think' }] });
    expect(lastUpstreamBody().thinking).toEqual({ type: 'disabled' });
    expect(off.choices[0]?.message).not.toHaveProperty('reasoning_details');
  });

  it('thinking comes back as signed reasoning details, counted as reasoning tokens, and returns upstream unchanged', async () => {
    const request = {
      model: 'acme/claude-thinking', max_tokens: 4000, reasoning: { max_tokens: 1024 }, messages: [{ role: 'user', content: 'Think [[sim tokens=2]]' }],
    } as ChatCompletionCreateParamsNonStreaming;
    const reply = await harness.client.chat.completions.create(request);
    const message = (reply as { choices: Array<{ message: { content: string; reasoning?: string; reasoning_details?: ReasoningDetail[] } }> }).choices[0]?.message;
    expect(message?.reasoning).toBe('Let me think this');
    const details = message?.reasoning_details ?? [];
    expect(details).toEqual([
      { type: 'reasoning.text', text: 'Let me think this', signature: expect.stringMatching(/^sig-/), format: 'anthropic-claude-v1', index: 0 },
      { type: 'reasoning.encrypted', data: expect.any(String), format: 'anthropic-claude-v1', index: 1 },
    ]);
    expect((reply.usage as unknown as { completion_tokens_details: { reasoning_tokens: number } }).completion_tokens_details.reasoning_tokens).toBe(4);
    expect(reply.usage?.completion_tokens).toBe(6);

    await harness.client.chat.completions.create({
      ...request,
      messages: [...request.messages, { role: 'assistant', content: message?.content, reasoning_details: details }, { role: 'user', content: 'Go on' }],
    } as ChatCompletionCreateParamsNonStreaming);
    const assistant = (lastUpstreamBody().messages as Array<{ role: string; content: unknown }>)[1];
    expect(assistant).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Let me think this', signature: details[0]?.signature },
        { type: 'redacted_thinking', data: details[1]?.data },
        { type: 'text', text: 'Hello from' },
      ],
    });
  });

  it('streamed thinking arrives as reasoning fragments of one index, the signed one last', async () => {
    const stream = await harness.client.chat.completions.create({
      model: 'acme/claude-thinking', stream: true, max_tokens: 4000, reasoning_effort: 'low', messages: [{ role: 'user', content: 'Think' }],
    });
    const fragments: ReasoningDetail[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { reasoning_details?: ReasoningDetail[] } | undefined;
      fragments.push(...(delta?.reasoning_details ?? []));
    }
    const text = fragments.filter((fragment) => fragment.type === 'reasoning.text');
    expect(new Set(text.map((fragment) => fragment.index)).size).toBe(1);
    expect(text.map((fragment) => fragment.text).join('')).toBe('Let me think this');
    expect(text.filter((fragment) => fragment.signature !== undefined)).toHaveLength(1);
    expect(text.at(-1)?.signature).toMatch(/^sig-/);
    expect(fragments.filter((fragment) => fragment.type === 'reasoning.encrypted')).toHaveLength(1);
  });
});

describe('images over the Anthropic wire', () => {
  it('a data URL becomes a base64 source with its media type; an https URL a url source', async () => {
    const png = buildPng(2, 2).toString('base64');
    const reply = await harness.client.chat.completions.create({
      model: 'acme/claude',
      messages: [{
        role: 'user',
        content: [
          { type: 'text', text: 'Compare these' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${png}` } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
        ],
      }],
    });
    expect(reply.choices[0]?.message.content).toBeTruthy();
    expect(lastUpstreamBody().messages).toEqual([{
      role: 'user',
      content: [
        { type: 'text', text: 'Compare these' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: png } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
      ],
    }]);
  });
});
