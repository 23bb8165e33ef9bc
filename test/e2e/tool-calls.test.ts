import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompletionTool } from 'openai/resources/chat/completions';
import { startHarness, type Harness } from './harness.js';

const WEATHER: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
};

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/tools', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }],
  });
});

afterAll(async () => harness.close());

describe('tool calls are handed back to the client', () => {
  it('a non-streamed reply carries the call, finish_reason tool_calls and null content', async () => {
    const reply = await harness.client.chat.completions.create({
      model: 'acme/tools',
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'Weather in Paris today [[sim tools]]' }],
    });
    const choice = reply.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    expect(choice?.message.content).toBeNull();
    const call = choice?.message.tool_calls?.[0];
    expect(call?.type).toBe('function');
    expect(call?.id).toBeTruthy();
    const fn = call?.type === 'function' ? call.function : undefined;
    expect(fn?.name).toBe('get_weather');
    expect(JSON.parse(fn?.arguments ?? '')).toEqual({ query: 'Weather in Paris' });
  });

  it('streamed call fragments are assembled by the client stream helper', async () => {
    const stream = harness.client.chat.completions.stream({
      model: 'acme/tools',
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'Weather in Paris today [[sim tools]]' }],
    });
    const final = await stream.finalChatCompletion();
    const choice = final.choices[0];
    expect(choice?.finish_reason).toBe('tool_calls');
    const call = choice?.message.tool_calls?.[0];
    const fn = call?.type === 'function' ? call.function : undefined;
    expect(fn?.name).toBe('get_weather');
    expect(JSON.parse(fn?.arguments ?? '')).toEqual({ query: 'Weather in Paris' });
  });

  it('streamed call fragments concatenate to the same arguments', async () => {
    const stream = await harness.client.chat.completions.create({
      model: 'acme/tools',
      stream: true,
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'Weather in Paris today [[sim tools]]' }],
    });
    let name = '';
    let args = '';
    let fragments = 0;
    for await (const chunk of stream) {
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
        name += call.function?.name ?? '';
        args += call.function?.arguments ?? '';
        fragments += 1;
      }
    }
    expect(fragments).toBeGreaterThan(1);
    expect(name).toBe('get_weather');
    expect(JSON.parse(args)).toEqual({ query: 'Weather in Paris' });
  });

  it('the named tool_choice function is the one called', async () => {
    const reply = await harness.client.chat.completions.create({
      model: 'acme/tools',
      tools: [WEATHER, { type: 'function', function: { name: 'get_time', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'get_time' } },
      messages: [{ role: 'user', content: 'What time is it [[sim tools]]' }],
    });
    const call = reply.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === 'function' ? call.function.name : undefined).toBe('get_time');
  });
});
